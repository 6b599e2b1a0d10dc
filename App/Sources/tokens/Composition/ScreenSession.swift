import TerminalUI

/// One run of the interactive screen, built by `ScreenComposer`: runs until the user quits, then
/// stops the background sync and closes its connection.
@MainActor
struct ScreenSession {
    let screen: AppScreen
    let sync: BackgroundSync?

    func run() async {
        await screen.run()
        sync?.scheduler.stop()
        await sync?.membership?.close()
    }
}
