import AppComposition
import Foundation

/// The `tokens` executable: runs the command line and exits with its status.
///
/// `main` is synchronous on purpose. An `async` main parks the main thread in `dispatch_main`,
/// which calls `pthread_exit`; in the static release binary that first unwinds the main thread
/// through the frame descriptions of the whole binary, about 50 ms before a command starts.
/// CommandRunner runs the command as a task instead (see CommandLoop).
@main
enum TokensMain {
    static func main() {
        // Every file tokens creates is private to the user.
        umask(0o077)
        ProcessMemory.keepLargeBlocksOnHeap()
        ProcessMemory.takeSQLitePagesOnDemand()
        exit(CommandRunner.run(Array(CommandLine.arguments.dropFirst())))
    }
}
