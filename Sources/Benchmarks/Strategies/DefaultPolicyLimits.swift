import WeakImageStore

/// The limits of `CachePolicy.default`, which the peers copy and the goals check against.
struct DefaultPolicyLimits {
    let costLimit: Int
    let countLimit: Int
    let admissionCostLimit: Int

    static var current: DefaultPolicyLimits {
        guard case .weakWithLRU(let costLimit, let countLimit, let admissionCostLimit) = CachePolicy.default else {
            preconditionFailure("the benchmark's goals assume CachePolicy.default is .weakWithLRU")
        }
        return DefaultPolicyLimits(costLimit: costLimit, countLimit: countLimit, admissionCostLimit: admissionCostLimit)
    }

    var description: String {
        "LRU \(costLimit / 1_048_576) MiB / \(countLimit) images, admission ≤ \(admissionCostLimit / 1024) KiB"
    }
}
