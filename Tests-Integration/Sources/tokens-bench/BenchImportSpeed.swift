import AppComposition
import Foundation
import ProcessKit

/// `make bench`, part 3: importing 10 000 accounts as a user does, the whole command into a
/// fresh REAL vault, beside keepassxc-cli importing the same entries into a new database.
extension Bench {
    /// 9. `tokens import` of a 10 000-entry Aegis file, against `keepassxc-cli import` of the
    /// same entries as KeePass XML (KDF target 100 ms, near Tokens's scrypt); in turn, 3 rounds.
    static func importSpeed(tokens: String) throws -> Result {
        let home = BenchHome()
        let accounts = benchAccounts(10_000)
        let aegis = try home.file("aegis.json", try AppComposer.makeInteropCodec().encode(accounts, as: .aegis, password: nil).data)
        let keepassxc = ProcessRunner.which("keepassxc-cli")
        let xml = try home.file("keepass.xml", Data(keePassXML(accounts.map { ($0.issuer, $0.name, $0.secret.base32) }).utf8))
        var round = 0
        let (ours, theirs) = Measure.inTurn(
            rounds: 3,
            {
                round += 1
                let data = home.url.appendingPathComponent("data-\(round)").path
                var environment = home.environment
                environment["XDG_DATA_HOME"] = data
                guard (try? ProcessRunner.run(tokens, ["init"], environment: environment))?.status == 0 else { return nil }
                var result: ProcessResult?
                let seconds = Measure.seconds {
                    result = try? ProcessRunner.run(tokens, ["import", aegis, "--quiet"], environment: environment)
                }
                return result?.status == 0 && result?.stdout.contains("added 10000") == true ? seconds : nil
            },
            {
                guard let keepassxc else { return nil }
                let database = home.url.appendingPathComponent("bench-\(round).kdbx").path
                var result: ProcessResult?
                let seconds = Measure.seconds {
                    result = try? ProcessRunner.run(
                        keepassxc, ["import", "-q", "-p", "-t", "100", xml, database], input: "benchpw\nbenchpw\n")
                }
                return result?.status == 0 ? seconds : nil
            })
        return Result(
            name: "tokens import 10 000 entries into a fresh REAL vault, whole command, median of 3", value: ours ?? .nan,
            unit: "s", comparedTo: "keepassxc-cli import (same entries, KDF 100 ms)", reference: theirs, goal: "≤ 0.5 s",
            met: ours.map { $0 <= 0.5 })
    }

    /// KeePass 2 XML of entries with an `otp` attribute, as keepassxc-cli imports it.
    static func keePassXML(_ entries: [(issuer: String, name: String, secret: String)]) -> String {
        func uuid() -> String { Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() }
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        }
        var xml = #"<?xml version="1.0" encoding="utf-8" standalone="yes"?>"# + "\n"
        xml += "<KeePassFile><Meta><Generator>tokens-bench</Generator><DatabaseName>bench</DatabaseName></Meta>"
        xml += "<Root><Group><UUID>\(uuid())</UUID><Name>Root</Name>"
        for entry in entries {
            let uri = "otpauth://totp/x:y?secret=\(entry.secret)&period=30&digits=6"
            xml += "<Entry><UUID>\(uuid())</UUID>"
            xml += "<String><Key>Title</Key><Value>\(escaped(entry.issuer))</Value></String>"
            xml += "<String><Key>UserName</Key><Value>\(escaped(entry.name))</Value></String>"
            xml += "<String><Key>otp</Key><Value>\(escaped(uri))</Value></String></Entry>"
        }
        return xml + "</Group></Root></KeePassFile>\n"
    }
}
