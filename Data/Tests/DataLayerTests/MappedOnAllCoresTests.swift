import Foundation
import Testing

@testable import DataLayer

/// The parallel map the vault decrypts its entries with: the same result as `map`, in order,
/// and the error of the first element that fails, however the parts are split.
@Suite("A map on every core")
struct MappedOnAllCoresTests {
    struct Failure: Error, Equatable {
        let element: Int
    }

    @Test("gives map's result in order, split into parts or not", arguments: [1, 7, 1_000, 100_000])
    func sameAsMap(perPart: Int) throws {
        let numbers = Array(0..<10_007)
        #expect(try numbers.mappedOnAllCores(perPart: perPart) { $0 * 3 } == numbers.map { $0 * 3 })
        #expect(try [Int]().mappedOnAllCores(perPart: perPart) { $0 }.isEmpty)
    }

    @Test("throws the error of the first element that fails, in the order of the elements")
    func firstError() {
        let numbers = Array(0..<10_000)
        #expect(throws: Failure(element: 2_500)) {
            try numbers.mappedOnAllCores(perPart: 10) { number in
                if number == 2_500 || number == 9_000 { throw Failure(element: number) }
                return number
            }
        }
    }
}
