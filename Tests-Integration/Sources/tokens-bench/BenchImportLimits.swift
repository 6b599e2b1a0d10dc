import AppComposition
import Domain
import Foundation
import ProcessKit

/// `make bench`, part 2: the goals of bounded parsing, through the installed-style binary.
/// Importing 10 000 entries into a REAL vault peaks under 100 MB resident (beside `tokens list`
/// on the same vault); every hostile file ends in under a second with a one-line error (beside
/// a one-entry import, timed in the same run).
extension Bench {
    /// A temporary home with a REAL vault, for one measurement.
    struct BenchHome: ~Copyable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bench-home-\(UUID())")
        var environment: [String: String] {
            [
                "HOME": url.path, "XDG_DATA_HOME": url.appendingPathComponent("data").path,
                "XDG_CONFIG_HOME": url.appendingPathComponent("config").path, "TOKENS_PASSPHRASE": "bench",
                "TOKENS_IMPORT_PASSWORD": "right", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            ]
        }
        func file(_ name: String, _ data: Data) throws -> String {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let path = url.appendingPathComponent(name).path
            try data.write(to: URL(fileURLWithPath: path))
            return path
        }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static func benchAccounts(_ count: Int) -> [Account] {
        (0..<count).map { number in
            Account(
                id: UUID(), issuer: "Issuer \(number)", name: "user\(number)@example.com",
                secret: Secret(bytes: withUnsafeBytes(of: UInt64(number).bigEndian) { Array($0) } + Array(0..<12)),
                kind: .totp(period: 30), note: number % 10 == 0 ? "note \(number)" : "", groups: ["Group \(number % 20)"],
                createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
        }
    }

    /// 7. Peak resident memory of `tokens import` of a 10 000-entry Aegis file into a REAL vault.
    static func importMemory(tokens: String) throws -> Result {
        let home = BenchHome()
        let file = try home.file(
            "aegis.json", try AppComposer.makeInteropCodec().encode(benchAccounts(10_000), as: .aegis, password: nil).data)
        _ = try ProcessRunner.run(tokens, ["init"], environment: home.environment)
        let list = try ProcessRunner.run(tokens, ["list"], environment: home.environment, measuringPeakMemory: true)
        let imported = try ProcessRunner.run(tokens, ["import", file], environment: home.environment, measuringPeakMemory: true)
        guard imported.status == 0, let peak = imported.peakResidentBytes else {
            return Result(
                name: "tokens import 10 000 entries (REAL), peak resident", value: .nan, unit: "MB", comparedTo: nil,
                reference: nil, goal: "< 100 MB", met: false)
        }
        let megabytes = Double(peak) / 1e6
        return Result(
            name: "tokens import 10 000 entries into a REAL vault, peak resident", value: megabytes, unit: "MB",
            comparedTo: "tokens list, same vault (unlock + scrypt)", reference: list.peakResidentBytes.map { Double($0) / 1e6 },
            goal: "< 100 MB", met: megabytes < 100)
    }

    /// 8. Hostile import files: each must end in under a second, exit 1 and say one line (the
    /// Google line is a valid entry in an impossible batch: imported, with a notice).
    static func hostileFiles(tokens: String) throws -> [Result] {
        let home = BenchHome()
        let codec = AppComposer.makeInteropCodec()
        let one = try home.file("one.txt", Data("otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP\n".utf8))
        let reference = Measure.median(
            try (0..<5).map { _ in
                try Measure.seconds { _ = try ProcessRunner.run(tokens, ["import", one, "--phase", "dev"], environment: home.environment) }
            })
        var files: [(String, String)] = []
        let google = try home.file("google.txt", Data(googleHugeBatch().utf8))
        let encrypted = try codec.encode(benchAccounts(1), as: .aegisEncrypted, password: "right").data
        files.append(("Aegis, 1 000 slots of p = 16", try home.file("slots-p16.json", try aegis(encrypted, slots: 1_000) { $0["p"] = 16 })))
        files.append(
            (
                "Aegis, 1 000 runnable slots, none right",
                try home.file("slots-wrong.json", try aegis(encrypted, slots: 1_000) { $0["salt"] = String(repeating: "ab", count: 32) })
            ))
        let oversized = home.url.appendingPathComponent("oversized.json")
        guard FileManager.default.createFile(atPath: oversized.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        try FileHandle(forWritingTo: oversized).truncate(atOffset: 200 << 20)
        files.append(("a 200 MiB file", oversized.path))
        let manyLines = (0...100_000).map { "otpauth://totp/I\($0):me?secret=JBSWY3DPEHPK3PXP" }.joined(separator: "\n")
        files.append(("100 001 Key URIs", try home.file("many.txt", Data(manyLines.utf8))))
        files.append(("JSON nested 100 000 deep", try home.file("deep.json", Data((String(repeating: "[", count: 100_000)).utf8))))
        files.append(("one 60 MiB line", try home.file("line.txt", Data(repeating: UInt8(ascii: "a"), count: 60 << 20))))

        func measure(_ path: String) throws -> (ProcessResult, Double) {
            var result: ProcessResult?
            let seconds = try Measure.seconds {
                result = try ProcessRunner.run(tokens, ["import", path, "--phase", "dev"], environment: home.environment, timeout: 60)
            }
            return (result!, seconds)
        }
        let (imported, googleSeconds) = try measure(google)
        let noticed = imported.status == 0 && imported.stdout.contains("out of range")
        var results = [
            Result(
                name: "hostile import: Google batch_size 2^31-1 (90 bytes)\(noticed ? "" : " (NO notice)")", value: googleSeconds,
                unit: "s", comparedTo: "a one-entry import", reference: reference, goal: "< 1 s, imported with a notice",
                met: noticed && googleSeconds < 1)
        ]
        for (name, path) in files {
            let (result, seconds) = try measure(path)
            let oneLine = result.status == 1 && result.errorLines.count == 1
            results.append(
                Result(
                    name: "hostile import: \(name)\(oneLine ? "" : " (NOT a one-line error)")", value: seconds, unit: "s",
                    comparedTo: "a one-entry import", reference: reference, goal: "< 1 s, one-line error", met: oneLine && seconds < 1))
        }
        return results
    }

    /// An otpauth-migration line whose one batch claims 2^31 − 1 batches.
    static func googleHugeBatch() -> String {
        // MigrationPayload: otp_parameters { secret, name, type TOTP }, version 1, batch_size, batch_index 0.
        let parameters: [UInt8] = [0x0A, 0x05, 1, 2, 3, 4, 5, 0x12, 0x01, 0x41, 0x30, 0x02]
        var payload: [UInt8] = [0x0A, UInt8(parameters.count)] + parameters + [0x10, 0x01, 0x18]
        var value: UInt64 = 2_147_483_647
        while value >= 0x80 {
            payload.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        payload += [UInt8(value), 0x20, 0x00]
        let base64 = Data(payload).base64EncodedString()
        return "otpauth-migration://offline?data=\(base64.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? base64)\n"
    }

    /// An encrypted Aegis export whose password slot is repeated `count` times with `change` applied.
    static func aegis(_ exported: Data, slots count: Int, _ change: (inout [String: Any]) -> Void) throws -> Data {
        guard var root = try JSONSerialization.jsonObject(with: exported) as? [String: Any],
            var header = root["header"] as? [String: Any], var slot = (header["slots"] as? [[String: Any]])?.first
        else { throw CocoaError(.coderReadCorrupt) }
        change(&slot)
        header["slots"] = Array(repeating: slot, count: count)
        root["header"] = header
        return try JSONSerialization.data(withJSONObject: root)
    }
}
