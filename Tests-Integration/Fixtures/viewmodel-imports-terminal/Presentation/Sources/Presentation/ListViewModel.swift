// Fixture: a view model importing the terminal layer breaks rule 4.
import Domain
import Observation
import TerminalUI

final class ListViewModel {}
