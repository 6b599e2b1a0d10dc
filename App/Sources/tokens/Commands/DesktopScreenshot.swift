import Foundation

/// `tokens add --screen`: a region of the screen the user picks, taken by the session's own
/// tools (slurp then grim on Wayland, ImageMagick's import on X11) straight into this process
/// (never written to a file), for its QR codes. Bounded in size, and in time: the user has a
/// minute to pick the region.
enum DesktopScreenshot {
    /// How long picking a region and taking the picture may take.
    static let timeout: TimeInterval = 60
    /// The most a picture may hold (an 8K screen is a few MiB of PNG).
    static let limit = 32 * 1024 * 1024

    /// The PNG of the region picked; a one-line error when there is no display, no tool, or no
    /// region was picked.
    static func picture(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Data {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        if environment["WAYLAND_DISPLAY"]?.isEmpty == false {
            guard let slurp = HelperProgram.find("slurp", path: path), let grim = HelperProgram.find("grim", path: path) else {
                throw CLIError("no screenshot tools: install grim and slurp (Wayland)")
            }
            let region = try output(of: slurp, [], limit: 256, nothing: "no region was picked")
            let geometry = String(decoding: region, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return try output(of: grim, ["-g", geometry, "-"], limit: limit, nothing: "grim took no picture")
        }
        if environment["DISPLAY"]?.isEmpty == false {
            guard let importTool = HelperProgram.find("import", path: path) else {
                throw CLIError("no screenshot tool: install ImageMagick (its import picks a region of an X11 screen)")
            }
            return try output(of: importTool, ["png:-"], limit: limit, nothing: "no region was picked")
        }
        throw CLIError("no desktop: neither WAYLAND_DISPLAY nor DISPLAY is set (over SSH, copy the picture over and use --qr FILE)")
    }

    /// What `program arguments` printed; `nothing` when it printed nothing or failed (the user
    /// pressed Escape), an error when it hung or printed too much.
    private static func output(of program: String, _ arguments: [String], limit: Int, nothing: String) throws -> Data {
        let name = (program as NSString).lastPathComponent
        switch HelperProgram.run(program, arguments, timeout: timeout, limit: limit) {
        case .exited(0, let output)? where !output.isEmpty: return Data(output)
        case .hung?: throw CLIError("\(name) did not finish within \(Int(timeout)) s")
        case .tooLong?: throw CLIError("\(name)'s picture is larger than \(limit / 1_048_576) MiB")
        case .exited?, nil: throw CLIError(nothing)
        }
    }
}
