/// One QR version (1–40) at error correction level M: its size, capacity and block layout.
struct QRVersion {
    let number: Int

    /// Error correction codewords per block, level M, by version.
    private static let eccPerBlock = [
        0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
        26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
    ]
    /// Error correction blocks, level M, by version.
    private static let blockCounts = [
        0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
        17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
    ]

    /// The smallest version whose byte-mode capacity holds `count` bytes.
    static func smallest(holdingBytes count: Int) -> QRVersion? {
        (1...40).lazy.map(QRVersion.init(number:)).first { $0.dataBits >= $0.segmentBits(count) }
    }

    var size: Int { number * 4 + 17 }
    var eccCodewordsPerBlock: Int { Self.eccPerBlock[number] }
    var blockCount: Int { Self.blockCounts[number] }

    /// Modules left for data and error correction once the function patterns are drawn.
    var rawDataModules: Int {
        var result = (16 * number + 128) * number + 64
        if number >= 2 {
            let alignments = number / 7 + 2
            result -= (25 * alignments - 10) * alignments - 55
            if number >= 7 { result -= 36 }
        }
        return result
    }

    var dataCodewords: Int { rawDataModules / 8 - eccCodewordsPerBlock * blockCount }
    private var dataBits: Int { dataCodewords * 8 }
    private var countBits: Int { number <= 9 ? 8 : 16 }
    private func segmentBits(_ count: Int) -> Int {
        count < 1 << countBits ? 4 + countBits + count * 8 : Int.max
    }

    /// Centres of the alignment patterns along one axis.
    var alignmentPositions: [Int] {
        guard number > 1 else { return [] }
        let count = number / 7 + 2
        let step = (number * 8 + count * 3 + 5) / (count * 4 - 4) * 2
        return [6] + (0..<(count - 1)).map { size - 7 - $0 * step }.reversed()
    }

    /// The byte-mode segment, terminator and padding: exactly `dataCodewords` bytes.
    func dataCodewords(for bytes: [UInt8]) -> [UInt8] {
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: countBits)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        bits.append(0, count: min(4, dataBits - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var result = bits.bytes
        var pad: UInt8 = 0xEC
        while result.count < dataCodewords {
            result.append(pad)
            pad ^= 0xEC ^ 0x11
        }
        return result
    }
}

/// Bits appended most significant first, read back as bytes.
struct BitBuffer {
    private(set) var bits: [Bool] = []
    var count: Int { bits.count }

    mutating func append(_ value: Int, count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) { bits.append(value >> shift & 1 == 1) }
    }

    var bytes: [UInt8] {
        stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<min(start + 8, bits.count)].enumerated().reduce(0) { $0 | ($1.element ? 0x80 >> $1.offset : 0) }
        }
    }
}
