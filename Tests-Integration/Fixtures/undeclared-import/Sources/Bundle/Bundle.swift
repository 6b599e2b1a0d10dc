import Core
import Feature

public let bundle = (Core(), Feature())
