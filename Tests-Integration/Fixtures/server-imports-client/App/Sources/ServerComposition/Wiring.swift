// Breaks rule 14: the server's composition root reaching into the client's (settings are shared
// through AppConfiguration, which is allowed).
import AppConfiguration
import AppComposition

enum Wiring {}
