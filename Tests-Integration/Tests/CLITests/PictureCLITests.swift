import Foundation
import IntegrationTestSupport
import ProcessKit
import Testing

/// The programs that make the pictures.
enum PictureTools {
    static let qrencode = ProcessRunner.which("qrencode")
    static let convert = ProcessRunner.imageMagickConvert
    static var present: Bool { qrencode != nil && convert != nil }
}

/// `tokens add --qr PICTURE`, `--qr -`, `--clipboard` with a picture, and `tokens import PICTURE`:
/// QR codes made by qrencode, transformed by ImageMagick as screenshots and photos are, each read
/// back to its account by the binary itself; hostile pictures refused with one line.
@Suite(
    "QR codes from pictures",
    .enabled(if: PictureTools.present || RequiredTests.all, "qrencode or ImageMagick is not installed (make deps-test installs them)"))
struct PictureCLITests {
    static let uris = [
        "otpauth://totp/Pictured:ann@example.com?secret=MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U&issuer=Pictured",
        "otpauth://totp/Second:bo@example.com?secret=5ALXI5DB33ZVD2RLDW5T6DG4RBC6BRNW&issuer=Second",
        "otpauth://hotp/Third:cy@example.com?secret=KRUGKIDROVUWG2ZAMJZG653OEBTG66BA&issuer=Third&counter=3",
    ]

    /// A folder for the pictures, and a QR code of `text` in it (`module` pixels a module).
    struct Pictures: ~Copyable {
        let home: TemporaryHome

        init() throws { home = try TemporaryHome() }

        func path(_ name: String) -> String { home.url.appendingPathComponent(name).path }

        @discardableResult
        func code(_ text: String, _ name: String, module: Int = 4) throws -> String {
            let made = try ProcessRunner.run(PictureTools.qrencode!, ["-s", "\(module)", "-o", path(name), text])
            #expect(made.status == 0, "\(made.stderr)")
            return path(name)
        }

        /// `convert` with `arguments` (paths given by name), writing `output`.
        @discardableResult
        func convert(_ arguments: [String], to output: String) throws -> String {
            let made = try ProcessRunner.run(PictureTools.convert!, arguments.map { $0.contains(".") ? path($0) : $0 } + [path(output)])
            #expect(made.status == 0, "\(made.stderr)")
            return path(output)
        }
    }

    /// `tokens add --qr picture` in DEV (nothing written), in a fresh home.
    static func add(_ picture: String, _ extra: [String] = []) throws -> ProcessResult {
        let home = try TemporaryHome()
        return try TokensProcess.run(["add", "--qr", picture, "--phase", "dev"] + extra, home: home.url)
    }

    @Test("qrencode and ImageMagick are there (CI, with TOKENS_REQUIRE_ALL_TESTS=1, runs this suite whatever happens)")
    func toolsAreInstalled() {
        #expect(PictureTools.present, "qrencode or convert is missing, and TOKENS_REQUIRE_ALL_TESTS=1 says this run must have them")
    }

    @Test("a code as screenshots and photos show it: scaled, rotated, blurred, JPEG, on a busy ground, inverted")
    func transformed() throws {
        let pictures = try Pictures()
        try pictures.code(Self.uris[0], "code.png")
        try pictures.code(Self.uris[0], "small.png", module: 2)
        let cases: [(name: String, arguments: [String])] = [
            ("plain.png", ["code.png"]),
            ("larger.png", ["code.png", "-filter", "box", "-resize", "350%"]),
            ("smaller.png", ["small.png", "-resize", "150%"]),
            ("rotated.png", ["code.png", "-background", "white", "-rotate", "23"]),
            ("blurred.png", ["code.png", "-resize", "300%", "-blur", "0x2"]),
            ("photo.jpg", ["code.png", "-resize", "250%", "-quality", "60"]),
            (
                "busy.png",
                ["-size", "900x700", "plasma:fractal", "-seed", "7", "code.png", "-gravity", "center", "-composite"]
            ),
            ("inverted.png", ["code.png", "-negate"]),
            ("grey-alpha.png", ["code.png", "-transparent", "white", "-colorspace", "gray"]),
        ]
        for (name, arguments) in cases {
            let picture = try pictures.convert(arguments, to: name)
            let added = try Self.add(picture)
            #expect(added.status == 0, "\(name): \(added.stderr)")
            #expect(added.stdout.hasPrefix("Added Pictured (ann@example.com)"), "\(name): \(added.stdout)")
            #expect(!(added.stdout + added.stderr).contains("MFRGGZDF"), "\(name): a secret was printed")
        }
    }

    @Test("several codes in one picture: every account; --qr - reads the picture from standard input")
    func severalAndStandardInput() throws {
        let pictures = try Pictures()
        for (index, uri) in Self.uris.enumerated() { try pictures.code(uri, "code\(index).png") }
        let row = try pictures.convert(["code0.png", "code1.png", "code2.png", "-background", "white", "+append"], to: "row.png")
        let added = try Self.add(row)
        #expect(added.status == 0, "\(added.stderr)")
        let names = Set(added.stdout.split(separator: "\n").filter { $0.hasPrefix("Added ") }.map { $0.split(separator: " ")[1] })
        #expect(names == ["Pictured", "Second", "Third"], "\(added.stdout)")
        let home = try TemporaryHome()
        let piped = try ProcessRunner.run(
            "/bin/sh", ["-c", "exec \"$0\" add --qr - --phase dev < \"$1\"", TokensProcess.binary, row],
            environment: TokensProcess.environment(home: home.url))
        #expect(piped.status == 0 && piped.stdout.components(separatedBy: "Added ").count == 4, "\(piped.stdout)\(piped.stderr)")
    }

    @Test("import reads a picture of Google Authenticator's transfer code; add points to import for it")
    func googleTransferCode() throws {
        let pictures = try Pictures()
        // One TOTP account, issuer Example, name alice@google.com (a transfer code as GA writes it).
        let transfer = "otpauth-migration://offline?data=CjEKCkhlbGxvId6tvu8SGEV4YW1wbGU6YWxpY2VAZ29vZ2xlLmNvbRoHRXhhbXBsZTAC"
        let picture = try pictures.code(transfer, "transfer.png")
        let home = try TemporaryHome()
        let imported = try TokensProcess.run(["import", picture, "--duplicates", "keep", "--phase", "dev"], home: home.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("Google Authenticator export: added 1"), "\(imported.stdout)")
        let added = try Self.add(picture)
        #expect(added.status != 0 && added.errorLines.count == 1)
        #expect(added.stderr.contains("holds a Google Authenticator transfer code: `tokens import FILE` reads it"), "\(added.stderr)")
    }

    @Test("hostile and wrong pictures: one line each, nothing added, never a crash")
    func failures() throws {
        let pictures = try Pictures()
        let code = try pictures.code(Self.uris[0], "code.png")
        let whole = try Data(contentsOf: URL(fileURLWithPath: code))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: pictures.path("truncated.png")))
        // 40 000 × 40 000 pixels claimed by a file of a few kilobytes.
        let bomb = try ProcessRunner.run(
            "python3",
            [
                RepositoryRoot.url.appendingPathComponent("Tests-Integration/Scripts/claimed-png.py").path, "40000", "40000",
                pictures.path("bomb.png"),
            ])
        #expect(bomb.status == 0, "\(bomb.stderr)")
        try pictures.code("hello, not a key", "hello.png")
        try pictures.convert(["-size", "640x480", "xc:white"], to: "blank.png")
        try Data("otpauth://totp/x?secret=AAAA".utf8).write(to: URL(fileURLWithPath: pictures.path("text.png")))
        let cases: [(file: String, says: String)] = [
            (
                "bomb.png",
                "tokens: cannot read \(pictures.path("bomb.png")): the picture is 40000 × 40000 pixels, more than the 40 million read"
            ),
            ("truncated.png", "tokens: cannot read \(pictures.path("truncated.png")): the picture is damaged"),
            ("hello.png", "tokens: \(pictures.path("hello.png")) holds a QR code that is not an otpauth:// Key URI (it is not printed)"),
            ("blank.png", "tokens: no QR code found in \(pictures.path("blank.png"))"),
            ("text.png", "tokens: cannot read \(pictures.path("text.png")): it is not a PNG or JPEG picture"),
            ("missing.png", "tokens: cannot read \(pictures.path("missing.png")): no such file"),
        ]
        for (file, says) in cases {
            let failed = try Self.add(pictures.path(file))
            #expect(failed.status != 0 && failed.stdout.isEmpty, "\(file): \(failed.stdout)")
            #expect(failed.errorLines.count == 1 && failed.stderr.hasPrefix(says), "\(file): \(failed.stderr)")
        }
        let home = try TemporaryHome()
        let imported = try TokensProcess.run(["import", pictures.path("bomb.png"), "--phase", "dev"], home: home.url)
        #expect(imported.status != 0 && imported.errorLines.count == 1, "\(imported.stderr)")
        #expect(imported.stderr.hasPrefix("tokens: cannot read the picture: the picture is 40000 × 40000 pixels"), "\(imported.stderr)")
    }

    @Test("--clipboard with a screenshot on it: the QR code in the picture wl-paste gives is added")
    func clipboardPicture() throws {
        let pictures = try Pictures()
        let code = try pictures.code(Self.uris[1], "code.png")
        let wlPaste = """
            case "$*" in
              --list-types) printf 'image/png\\nimage/bmp\\n' ;;
              "--type image/png") exec /bin/cat '\(code)' ;;
              *) exit 1 ;;
            esac
            """
        let added = try ClipboardCLITests.add(tools: ["wl-paste": wlPaste], session: ["WAYLAND_DISPLAY": "wayland-9"])
        #expect(added.status == 0 && added.stdout.hasPrefix("Added Second (bo@example.com)"), "\(added.stdout)\(added.stderr)")
    }

    @Test("--screen: the region slurp picks, taken by grim (Wayland) or import (X11), is read; each failure one line")
    func screen() throws {
        let pictures = try Pictures()
        let code = try pictures.code(Self.uris[2], "code.png")
        let grim = "[ \"$1 $2 $3\" = '-g 10,20 300x300 -' ] && exec /bin/cat '\(code)' || exit 1"
        let wayland = try ClipboardCLITests.add(
            "--screen", tools: ["slurp": "printf '10,20 300x300\\n'", "grim": grim], session: ["WAYLAND_DISPLAY": "wayland-9"])
        #expect(wayland.status == 0 && wayland.stdout.hasPrefix("Added Third (cy@example.com)"), "\(wayland.stdout)\(wayland.stderr)")
        let x11 = try ClipboardCLITests.add(
            "--screen", tools: ["import": "[ \"$1\" = png:- ] && exec /bin/cat '\(code)' || exit 1"], session: ["DISPLAY": ":9"])
        #expect(x11.status == 0 && x11.stdout.hasPrefix("Added Third (cy@example.com)"), "\(x11.stdout)\(x11.stderr)")
        let cases: [(tools: [String: String], session: [String: String], says: String)] = [
            ([:], [:], "tokens: no desktop: neither WAYLAND_DISPLAY nor DISPLAY is set"),
            (["slurp": "exit 0"], ["WAYLAND_DISPLAY": "wayland-9"], "tokens: no screenshot tools: install grim and slurp (Wayland)"),
            (["slurp": "exit 1", "grim": grim], ["WAYLAND_DISPLAY": "wayland-9"], "tokens: no region was picked"),
            ([:], ["DISPLAY": ":9"], "tokens: no screenshot tool: install ImageMagick"),
            (
                ["import": "printf 'not a picture'"], ["DISPLAY": ":9"],
                "tokens: cannot read the region of the screen: it is not a PNG or JPEG picture"
            ),
        ]
        for (tools, session, says) in cases {
            let failed = try ClipboardCLITests.add("--screen", tools: tools, session: session)
            #expect(failed.status != 0 && failed.stdout.isEmpty)
            #expect(failed.errorLines.count == 1 && failed.stderr.hasPrefix(says), "\(failed.stderr)")
        }
    }
}
