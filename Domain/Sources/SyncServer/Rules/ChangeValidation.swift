/// The rules a push must meet before anything is written: a bounded number of changes, each
/// entry once, sequences that can exist, nonces and ciphertexts of allowed sizes.
public enum ChangeValidation {
    public static func check(_ changes: [EntryChange], limits: SyncLimits) throws(SyncServerError) {
        guard !changes.isEmpty else { throw .invalid("a push needs at least one change") }
        guard changes.count <= limits.changesPerPush else { throw .tooManyChanges(limit: limits.changesPerPush) }
        var seen = Set<EntryID>()
        for change in changes {
            guard seen.insert(change.id).inserted else { throw .invalid("entry \(change.id) appears twice in one push") }
            guard change.basedOn >= 0 else { throw .invalid("basedOn must not be negative") }
            guard change.payload.keyVersion >= 1 else { throw .invalid("keyVersion starts at 1") }
            guard change.payload.nonce.count == limits.nonceBytes else {
                throw .invalid("a nonce has \(limits.nonceBytes) bytes")
            }
            guard change.payload.ciphertext.count <= limits.ciphertextBytes else {
                throw .payloadTooLarge(limit: limits.ciphertextBytes)
            }
            guard change.payload.isDeleted || !change.payload.ciphertext.isEmpty else {
                throw .invalid("only a deletion may have an empty ciphertext")
            }
        }
    }
}
