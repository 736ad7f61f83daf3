/// The loads in progress, one per image: a second miss for the same key joins the first.
struct InFlightLoads<Image: StorableImage>: Sendable {
    /// What a miss should do.
    enum Admission {
        /// No load was running: this caller loads and must call ``finish(_:)`` afterwards.
        case started(PendingLoad<Image>)
        /// A load is running: wait for it.
        case joined(PendingLoad<Image>)
    }

    private var loads: [ResourceKey: PendingLoad<Image>] = [:]

    var count: Int { loads.count }

    mutating func admit(_ key: ResourceKey) -> Admission {
        if let running = loads[key] {
            return .joined(running)
        }
        let pending = PendingLoad<Image>()
        loads[key] = pending
        return .started(pending)
    }

    mutating func finish(_ key: ResourceKey) {
        loads[key] = nil
    }
}
