import Domain
import DomainTestSupport
import Foundation
import Testing

/// Records from other versions of Tokens: what this version does not know is kept through the
/// merge and every local change, and merges by its stamps, the same both ways round.
@Suite("Sync records from other versions")
struct SyncUnknownPartsTests {
    typealias M = SyncMergeTests

    static func archived(_ value: Bool, at milliseconds: Int64, _ device: UUID = M.desktop) -> SyncUnknownParts.Field {
        let at = M.at(milliseconds, device)
        return SyncUnknownParts.Field(
            json: #"{"at":{"c":0,"d":"\#(device.uuidString)","ms":\#(milliseconds)},"v":\#(value)}"#, changedAt: at)
    }

    /// The base as a newer machine wrote it: an `archived` field and an `icon` on its key.
    static let newer: SyncRecord = {
        var record = M.base
        record.unknown = SyncUnknownParts(
            fields: ["archived": archived(true, at: 1_000)], keyAttributes: ["icon": #""github""#], keyStamp: M.base.key.changedAt)
        return record
    }()

    @Test("an edit here keeps a newer version's field and key attribute; a key changed here leaves the old key's attribute behind")
    func localChangesKeepUnknown() {
        let account = SyncRecording.account(from: Self.newer, previous: nil)!
        var edited = account
        edited.note = "edited on the older machine"
        let record = SyncRecording.updating(Self.newer, to: edited, stamp: M.at(2_000))
        #expect(record.note.value == "edited on the older machine")
        #expect(record.unknown == Self.newer.unknown)
        #expect(record.unknown.keyAttributes(of: record.key.changedAt) == ["icon": #""github""#])

        var rekeyed = account
        rekeyed.secret = Secret(bytes: [9, 9, 9])
        let replaced = SyncRecording.updating(Self.newer, to: rekeyed, stamp: M.at(3_000))
        #expect(replaced.unknown.fields == Self.newer.unknown.fields)
        #expect(replaced.unknown.keyAttributes(of: replaced.key.changedAt).isEmpty)
    }

    @Test(
        "merged with a machine that knows nothing of them, both ways round: the unknown parts stay; between two that know them, the later stamp wins"
    )
    func mergeKeepsUnknown() {
        let older = M.base.noted("older", at: 2_000)
        let merged = M.merged(Self.newer, older).merged
        #expect(merged.note.value == "older")
        #expect(merged.unknown.fields == Self.newer.unknown.fields)
        #expect(merged.unknown.keyAttributes(of: merged.key.changedAt) == ["icon": #""github""#])

        var unarchived = Self.newer
        unarchived.unknown.fields["archived"] = Self.archived(false, at: 3_000, M.laptop)
        #expect(M.merged(Self.newer, unarchived).merged.unknown.fields["archived"] == Self.archived(false, at: 3_000, M.laptop))
    }

    @Test("the key attributes go with the key that wins the merge")
    func keyAttributesFollowTheKey() {
        var rekeyed = M.base
        rekeyed.key = Stamped(M.key(7), changedAt: M.at(5_000, M.laptop))
        let merged = M.merged(Self.newer, rekeyed).merged
        #expect(merged.key.value == M.key(7))
        #expect(merged.unknown.keyAttributes(of: merged.key.changedAt).isEmpty)
        #expect(merged.unknown.fields == Self.newer.unknown.fields)
    }

    @Test("a field another version changed since the base is an edit: it beats a delete that had not seen it, both ways round")
    func unknownEditBeatsDelete() {
        let deleted = M.base.deleted(at: 2_000)
        var archived = M.base
        archived.unknown.fields["archived"] = Self.archived(true, at: 3_000)
        let merged = M.merged(deleted, archived).merged
        #expect(!merged.isDeleted.value)
        #expect(merged.unknown.fields["archived"] == Self.archived(true, at: 3_000))
        // Unchanged since the base, it is no edit: the delete stands.
        #expect(M.merged(base: Self.newer, Self.newer.deleted(at: 2_000), Self.newer).merged.isDeleted.value)
    }
}
