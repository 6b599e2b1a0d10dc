/// Where copied codes go. The terminal implements it with OSC 52, which works over SSH.
@MainActor
public protocol Clipboard: AnyObject {
    func copy(_ text: String)
    func clear()
    /// What the user should know, once, about where copies go (inside tmux without
    /// `set-clipboard on` they go nowhere); nil when nothing.
    var caveat: String? { get }
}

extension Clipboard {
    public var caveat: String? { nil }
}
