/// Where copied codes go. The terminal implements it with OSC 52, which works over SSH.
@MainActor
public protocol Clipboard: AnyObject {
    func copy(_ text: String)
    func clear()
}
