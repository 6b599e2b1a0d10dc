// Fixture: Data importing an outer layer breaks rule 6.
import Domain
import Presentation

struct Store {}
