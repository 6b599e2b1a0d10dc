/// What a push does with one change, given the entry as stored: the compare-and-set rule.
public enum PushDecision: Equatable, Sendable {
    /// Store the change at the account's next sequence.
    case write
    /// The same bytes are stored already (a retried push): applied, nothing written.
    case alreadyApplied(sequence: Int64)
    /// The entry moved on since the client saw it.
    case conflict(current: SyncEntry)

    /// A missing entry takes any change (new, or a tombstone forgotten: an edit beats a delete);
    /// a stored one only a change based on its sequence, or the very payload it holds.
    public static func decide(_ change: EntryChange, stored: SyncEntry?) -> PushDecision {
        guard let stored else { return .write }
        if stored.sequence == change.basedOn { return .write }
        if stored.payload == change.payload { return .alreadyApplied(sequence: stored.sequence) }
        return .conflict(current: stored)
    }
}
