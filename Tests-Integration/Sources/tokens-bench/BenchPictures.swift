import Foundation
import ProcessKit

/// `make bench`, pictures: `tokens import PICTURE` through the installed binary on an 8K
/// screenshot with one QR code, and on hostile pictures (a few kilobytes claiming 40 000 ×
/// 40 000 pixels, an 8K screenshot cut in half, 33 million pixels of checkerboard with no code),
/// each against a one-entry import of text, timed in the same run.
extension Bench {
    static func pictures(tokens: String) throws -> [Result] {
        let home = BenchHome()
        guard let qrencode = ProcessRunner.which("qrencode"),
            let convert = ProcessRunner.imageMagickConvert
        else { throw BenchFailure(what: "pictures: qrencode or ImageMagick's convert is missing (make deps-test installs them)") }
        // (The first file makes the folder.)
        let one = try home.file("one.txt", Data("otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP\n".utf8))
        let path = { (name: String) in home.url.appendingPathComponent(name).path }
        func make(_ program: String, _ arguments: [String]) throws {
            let made = try ProcessRunner.run(program, arguments, timeout: 120)
            guard made.status == 0 else { throw BenchFailure(what: "pictures: \(program): \(made.stderr)") }
        }
        try make(qrencode, ["-s", "6", "-o", path("code.png"), "otpauth://totp/Pictured:me?secret=OBQXG43XN5ZGIMJSGM2DKNRXHA4TAMJS"])
        try make(convert, ["-size", "7680x4320", "xc:white", path("code.png"), "-gravity", "center", "-composite", path("screen.png")])
        try make(convert, ["-size", "7680x4320", "pattern:checkerboard", path("checkers.png")])
        try make("python3", ["Tests-Integration/Scripts/claimed-png.py", "40000", "40000", path("claimed.png")])
        let screen = try Data(contentsOf: URL(fileURLWithPath: path("screen.png")))
        try screen.prefix(screen.count / 2).write(to: URL(fileURLWithPath: path("cut.png")))
        let reference = Measure.commandMedian(tokens, ["import", one, "--phase", "dev"], environment: home.environment, runs: 5)
        func timed(_ file: String) throws -> (ProcessResult, Double) {
            var result: ProcessResult?
            let seconds = try Measure.seconds {
                result = try ProcessRunner.run(
                    tokens, ["import", path(file), "--phase", "dev"], environment: home.environment, timeout: 60)
            }
            return (result!, seconds)
        }
        let (read, readSeconds) = try timed("screen.png")
        let added = read.status == 0 && read.stdout.contains("added 1")
        var results = [
            Result(
                name: "picture: an 8K screenshot (7680 × 4320) with one QR code, imported\(added ? "" : " (NOT read)")",
                value: readSeconds, unit: "s", comparedTo: "a one-entry import of text", reference: reference, goal: "< 1 s",
                met: added && readSeconds < 1)
        ]
        for (name, file) in [
            ("a PNG of a few KB claiming 40 000 × 40 000 pixels", "claimed.png"), ("an 8K screenshot cut in half", "cut.png"),
            ("33 million pixels of checkerboard, no code", "checkers.png"),
        ] {
            let (result, seconds) = try timed(file)
            let oneLine = result.status == 1 && result.errorLines.count == 1
            results.append(
                Result(
                    name: "hostile picture: \(name)\(oneLine ? "" : " (NOT a one-line error)")", value: seconds, unit: "s",
                    comparedTo: "a one-entry import of text", reference: reference, goal: "< 1 s, one-line error",
                    met: oneLine && seconds < 1))
        }
        return results
    }
}
