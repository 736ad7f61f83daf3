/// Who carries a load forward: the two drivers of the one ``LoadStateMachine``.
///
/// Their real differences are the arguments of its events: a synchronous caller never waits on
/// the network (a network image memory does not hold is read from the disk cache or fails), and
/// it never waits behind queued work (it takes a queued load of its image over and runs it
/// itself); a loading thread runs a queued load for its waiters, and hands it to the downloader
/// instead of waiting for bytes.
enum LoadRunner: Sendable {
    /// A synchronous lookup of this request, on its caller's thread, before it joins a load.
    case caller(ImageRequest)
    /// A loading thread running this queued load.
    case loadingThread(LoadID)
}
