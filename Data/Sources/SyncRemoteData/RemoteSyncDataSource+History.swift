import Domain
import Foundation

/// The account's earlier versions, each opened with the key it was sealed with; one that does
/// not open is counted, never a failure of the rest.
extension RemoteSyncDataSource: SyncHistoryRemote {
    public func earlier(after cursor: Int64) async throws(SyncError) -> EarlierPage {
        let output: Operations.PullHistory.Output
        do { output = try await api.pullHistory(query: .init(after: cursor)) } catch { throw Self.transportError(error) }
        switch output {
        case .ok(let ok):
            guard case .json(let page) = ok.body else { throw .incompatible }
            var versions: [EarlierVersion] = []
            var unreadable = 0
            for earlier in page.entries {
                let entry = Components.Schemas.Entry(
                    id: earlier.id, sequence: earlier.sequence, deleted: false, keyVersion: earlier.keyVersion, nonce: earlier.nonce,
                    ciphertext: earlier.ciphertext, changedAt: earlier.changedAt)
                // A version sealed for another entry (a server moving ciphertexts) does not open.
                guard let opened = try? open(entry) else {
                    unreadable += 1
                    continue
                }
                versions.append(EarlierVersion(entry: opened, replacedAt: earlier.replacedAt))
            }
            return EarlierPage(
                versions: versions, unreadable: unreadable, last: page.entries.map(\.sequence).max(), hasMore: page.hasMore)
        case .badRequest: throw .incompatible
        case .unauthorized(let problem): throw Self.refusal(problem)
        case .tooManyRequests(let problem): throw Self.rateLimited(problem)
        // A server from before history has no such route.
        case .default(404, _): throw .historyUnavailable
        case .default(let status, _): throw Self.error(status: status)
        }
    }
}
