public struct Core { public init() {} }
