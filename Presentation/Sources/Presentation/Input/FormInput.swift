/// A screen of fields filled from the keyboard (Add, Detail): one key map serves every form.
@MainActor
protocol FormInput: AnyObject {
    func moveFocus(by offset: Int)
    func type(_ text: String)
    func backspace()
    func save() async
    /// Leaves the form without saving.
    func dismiss()
    /// Reads a key the form gives a meaning of its own; false leaves it to the common map.
    func handleOwnKey(_ key: Key) -> Bool
}

extension FormInput {
    func handleOwnKey(_ key: Key) -> Bool { false }

    /// The common map: Escape leaves, Tab/Shift-Tab/arrows move between fields, Enter saves, text types.
    func handle(_ key: Key) async {
        if handleOwnKey(key) { return }
        switch key {
        case .escape: dismiss()
        case .tab, .down: moveFocus(by: 1)
        case .up, .backTab: moveFocus(by: -1)
        case .backspace: backspace()
        case .enter: await save()
        case .character(let character): type(String(character))
        default: break
        }
    }
}

extension AccountDetailViewModel: FormInput {
    func dismiss() { close() }
}

extension AddAccountViewModel: FormInput {
    func dismiss() { cancel() }

    /// Space cycles the choice of the kind and algorithm fields.
    func handleOwnKey(_ key: Key) -> Bool {
        guard key == .character(" "), [.kind, .algorithm].contains(focus) else { return false }
        cycleChoice()
        return true
    }
}
