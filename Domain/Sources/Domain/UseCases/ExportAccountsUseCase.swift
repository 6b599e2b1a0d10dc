/// Exports every account in a format other apps read; the result says what the format could not hold.
public protocol ExportAccountsUseCase: Sendable {
    func execute(format: ExportFormat, password: String?) async throws -> EncodedExport
}

/// The ExportAccounts use case over the repository and the encoder port.
public struct DefaultExportAccountsUseCase: ExportAccountsUseCase {
    private let repository: any AccountRepository
    private let encoder: any AccountExportEncoder
    private let random: any RandomSource

    public init(repository: any AccountRepository, encoder: any AccountExportEncoder, random: any RandomSource) {
        self.repository = repository
        self.encoder = encoder
        self.random = random
    }

    public func execute(format: ExportFormat, password: String?) async throws -> EncodedExport {
        try encoder.encode(try await repository.list(), as: format, password: password, random: random)
    }
}
