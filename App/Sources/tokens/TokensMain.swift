import Foundation

/// The `tokens` executable: runs the command line and exits with its status.
@main
enum TokensMain {
    static func main() async {
        // Every file tokens creates is private to the user.
        umask(0o077)
        let status = await CommandRunner.run(Array(CommandLine.arguments.dropFirst()))
        exit(status)
    }
}
