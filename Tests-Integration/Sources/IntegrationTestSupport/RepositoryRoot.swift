import Foundation

/// Where the monorepo's root is, found from this file's location.
public enum RepositoryRoot {
    public static let url: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Domain/Package.swift").path),
                FileManager.default.fileExists(atPath: url.appendingPathComponent("Tests-Integration").path)
            {
                return url
            }
            url.deleteLastPathComponent()
        }
        fatalError("Tests-Integration is not inside the Tokens repository")
    }()

    /// A fixture folder under Tests-Integration/Fixtures.
    public static func fixture(_ name: String) -> URL {
        url.appendingPathComponent("Tests-Integration/Fixtures/\(name)")
    }
}
