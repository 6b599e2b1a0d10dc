import Presentation
import Testing

@Suite("Formatting and Loadable")
struct FormattingTests {
    @Test(
        "groups codes for reading",
        arguments: [
            ("123456", "123 456"), ("1234567", "123 4567"), ("12345678", "1234 5678"),
            ("123456789", "123 456 789"), ("1234567890", "123 456 7890"), ("2TC8B", "2TC8B"), ("12345", "12345"),
        ])
    func grouping(code: String, expected: String) {
        #expect(CodeFormatter.grouped(code) == expected)
    }

    @Test("Loadable keeps the last value while reloading")
    func loadable() {
        #expect(Loadable<Int>.isLoading(last: 3).value == 3)
        #expect(Loadable<Int>.loaded(4).map { $0 * 2 } == .loaded(8))
        #expect(Loadable<Int>.failed("x").failureMessage == "x")
        #expect(Loadable<Int>.notRequested.value == nil)
    }
}
