/// The rules a push must meet before anything is written: a bounded number of changes,
/// sequences that can exist, nonces and ciphertexts of allowed sizes. (What a
/// ciphertext holds is the clients' to check: the server cannot open it.)
public enum ChangeValidation {
    public static func check(_ changes: [EntryChange], limits: SyncLimits) throws(SyncServerError) {
        guard !changes.isEmpty else { throw .invalid("a push needs at least one change") }
        guard changes.count <= limits.changesPerPush else { throw .tooManyChanges(limit: limits.changesPerPush) }
        // An entry may appear twice: its changes are decided in order, so the second one, based
        // on the sequence the first replaced, is a conflict (or, with the same bytes, applied).
        for change in changes {
            guard change.basedOn >= 0 else { throw .invalid("basedOn must not be negative") }
            guard change.payload.keyVersion >= 1 else { throw .invalid("keyVersion starts at 1") }
            guard change.payload.nonce.count == limits.nonceBytes else {
                throw .invalid("a nonce has \(limits.nonceBytes) bytes")
            }
            guard change.payload.ciphertext.count <= limits.ciphertextBytes else {
                throw .payloadTooLarge(limit: limits.ciphertextBytes)
            }
        }
    }
}
