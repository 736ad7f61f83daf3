extension Result {
    /// The success value, or the failure thrown with its own type.
    ///
    /// Apple's SDKs up to Swift 5.10 declare `get()` as throwing `any Error`, which a
    /// `throws(Failure)` caller cannot rethrow; this spelling compiles the same everywhere.
    package func typedGet() throws(Failure) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }

    /// Runs `body` and captures its value or its typed error.
    ///
    /// Apple's SDKs up to Swift 5.10 have no typed-throws `init(catching:)`: there it would infer
    /// `Result<Success, any Error>`.
    package init(typedCatching body: () throws(Failure) -> Success) {
        do {
            self = .success(try body())
        } catch {
            self = .failure(error)
        }
    }
}
