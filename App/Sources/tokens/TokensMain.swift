import Foundation

/// The `tokens` executable: runs the command line and exits with its status.
@main
enum TokensMain {
    static func main() async {
        let status = await CommandRunner.run(Array(CommandLine.arguments.dropFirst()))
        exit(status)
    }
}
