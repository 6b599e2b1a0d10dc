// Fixture: a view reaching the Data layer breaks rule 5.
import DataLayer
import Presentation

struct ListView {}
