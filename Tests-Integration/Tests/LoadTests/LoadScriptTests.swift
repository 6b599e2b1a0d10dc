import IntegrationTestSupport
import LoadKit
import SyncServerData
import Testing

/// pgbench runs exactly the server's SQL: each workload of Load/sync.pgbench is the statements of
/// `PostgresStatements` in the order the server runs them for one request (a push of plain writes:
/// the push in one statement). A change to a statement of the server that the script does not follow fails here.
@Suite("make loadtest's pgbench script is the server's SQL")
struct LoadScriptTests {
    typealias S = PostgresStatements

    static let expected: [String: [String]] = [
        "push": [S.pushForToken],
        "pull": [S.pageForToken],
        "head": [S.pageForToken],
    ]

    @Test("every workload, statement by statement", arguments: SyncLoad.workloads)
    func sameStatements(workload: String) throws {
        let script = try PgbenchScript(repository: RepositoryRoot.url)
        let expected = (Self.expected[workload] ?? []).map(PgbenchScript.collapsed)
        #expect(script.statements(of: workload) == expected)
    }

    @Test("a statement that differs is found (the check can fail)")
    func differenceFound() {
        let script = PgbenchScript(
            text: """
                -- workload: head
                \\if :ready = 0
                SELECT 1 AS token \\gset
                \\endif
                SELECT account_id, id, name, token_digest, enrolled_at, revoked_at, device_key FROM device WHERE token_digest = :token;
                SELECT horizon, key_version FROM sync_account WHERE id = :account;
                SELECT id, seq, deleted, key_version, nonce, ciphertext, changed_at FROM entry
                WHERE account_id = :account AND seq >= :cursor ORDER BY seq LIMIT :page;
                SELECT seq FROM sync_account WHERE id = :account::uuid;
                """)
        let statements = script.statements(of: "head")
        #expect(statements.count == 4)
        #expect(statements[0] == PgbenchScript.collapsed(S.deviceWithToken))
        #expect(statements[2] != PgbenchScript.collapsed(S.changes))
        #expect(statements[3] == "SELECT seq FROM sync_account WHERE id = $1::uuid")
    }
}
