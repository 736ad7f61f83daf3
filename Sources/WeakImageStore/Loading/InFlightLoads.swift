/// The loads in progress, one per image: a second miss for the same key joins the first.
struct InFlightLoads: Sendable {
    /// What a miss should do.
    enum Admission {
        /// No load was running: this caller loads and must call ``finish(_:)`` afterwards.
        case started(PendingLoad)
        /// A load is running: wait for it.
        case joined(PendingLoad)
    }

    private var loads: [ResourceKey: PendingLoad] = [:]

    mutating func admit(_ key: ResourceKey) -> Admission {
        if let running = loads[key] {
            return .joined(running)
        }
        let pending = PendingLoad()
        loads[key] = pending
        return .started(pending)
    }

    mutating func finish(_ key: ResourceKey) {
        loads[key] = nil
    }
}
