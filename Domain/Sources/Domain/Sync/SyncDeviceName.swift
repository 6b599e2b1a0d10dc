import SyncProtocol

/// The name this machine enrols under, checked by the same rule the server applies
/// (SyncProtocol's `DeviceNameRule`): 1 to 64 Unicode scalars, no control character.
public enum SyncDeviceName {
    /// What is wrong with `name`, in one line; nil when the server will take it.
    public static func problem(in name: String) -> String? {
        do {
            try DeviceNameRule.check(name)
            return nil
        } catch {
            return error.description
        }
    }
}
