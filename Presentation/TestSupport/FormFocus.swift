import Presentation

/// Navigation by field name for tests: a field added to a form, or the order changed, leaves
/// them pointing at the field they mean (by offsets they would each need a new number).
@MainActor
extension AccountDetailViewModel {
    /// Moves the focus to `field` the way the keys do, by an offset.
    public func moveFocus(to field: Field) { moveFocus(by: field.rawValue - focus.rawValue) }
}

@MainActor
extension AddAccountViewModel {
    /// Moves the focus to `field` the way the keys do, by an offset.
    public func moveFocus(to field: Field) { moveFocus(by: field.rawValue - focus.rawValue) }
}
