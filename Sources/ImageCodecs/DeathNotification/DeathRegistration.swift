/// One store's interest in one image's death: whom to tell, and under which token.
package struct DeathRegistration: Sendable {
    /// The store; held weakly, so images do not keep their stores alive and a store that died
    /// first is simply not told.
    package weak var observer: (any ImageDeathObserver)?
    /// What the store filed the image under; the store keeps the key and cost that go with it.
    package let token: DeathToken

    package init(observer: (any ImageDeathObserver)?, token: DeathToken) {
        self.observer = observer
        self.token = token
    }
}
