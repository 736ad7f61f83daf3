import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The accept loop: a thread that waits on the listening socket and starts a thread per
/// connection, until the server stops.
enum HTTPListener {
    /// Starts the accept loop's thread.
    ///
    /// - Returns: Whether it started (not if the server is already stopping).
    @discardableResult
    static func start(_ core: HTTPServerCore) -> Bool {
        guard core.threadWillStart() else { return false }
        let thread = Thread {
            acceptConnections(core)
            core.threadDidEnd()
        }
        thread.name = "LoopbackHTTPServer accept loop"
        thread.start()
        return true
    }

    private static func acceptConnections(_ core: HTTPServerCore) {
        while true {
            // The timeout only bounds each wait; stopping wakes it through the pipe at once.
            switch LoopbackSocket.wait(for: core.listener, Int16(POLLIN), orWakeUp: core.wakeUpReadEnd, timeout: 60) {
            case .wokenUp: return
            case .timedOut: continue
            case .ready: break
            }
            while let descriptor = LoopbackSocket.acceptConnection(from: core.listener) {
                guard core.threadWillStart() else {
                    LoopbackSocket.closeDescriptor(descriptor)
                    return
                }
                let number = core.connectionDidOpen()
                let thread = Thread {
                    var connection = HTTPConnection(descriptor: descriptor, number: number, core: core)
                    connection.run()
                    core.threadDidEnd()
                }
                thread.name = "LoopbackHTTPServer connection \(number)"
                thread.start()
            }
        }
    }
}
