import Testing

@testable import tokens

/// The tmux caveat of the first copy: said inside tmux unless its set-clipboard is on; tmux is
/// asked only inside it.
@Suite("tmux clipboard caveat")
struct TmuxClipboardTests {
    @Test("outside tmux nothing is said and tmux is not asked; inside, the caveat unless set-clipboard is on")
    func caveat() {
        #expect(
            TmuxClipboard.caveat(environment: [:]) {
                Issue.record("tmux asked outside tmux")
                return nil
            } == nil)
        let inside = ["TMUX": "/tmp/tmux-1000/default,4242,0"]
        #expect(TmuxClipboard.caveat(environment: inside) { "on\n" } == nil)
        for answer in ["external\n", "off\n", nil] {
            #expect(TmuxClipboard.caveat(environment: inside) { answer } == TmuxClipboard.advice, "\(answer ?? "no answer")")
        }
    }
}
