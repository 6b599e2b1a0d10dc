/// Reed–Solomon error correction over GF(256) (polynomial 0x11D), and the interleaving of
/// data and error correction blocks a QR version prescribes.
enum ReedSolomon {
    /// The data split into the version's blocks, each followed by its error correction,
    /// interleaved codeword by codeword.
    static func interleave(data: [UInt8], version: QRVersion) -> [UInt8] {
        let blockCount = version.blockCount
        let eccLength = version.eccCodewordsPerBlock
        let rawCodewords = version.rawDataModules / 8
        let shortBlocks = blockCount - rawCodewords % blockCount
        let shortLength = rawCodewords / blockCount
        let divisor = generator(degree: eccLength)
        var blocks: [[UInt8]] = []
        var offset = 0
        for index in 0..<blockCount {
            let length = shortLength - eccLength + (index < shortBlocks ? 0 : 1)
            var block = Array(data[offset..<offset + length])
            offset += length
            let ecc = remainder(of: block, divisor: divisor)
            // Short blocks get a placeholder so that every block has the same length.
            if index < shortBlocks { block.append(0) }
            blocks.append(block + ecc)
        }
        var result: [UInt8] = []
        result.reserveCapacity(rawCodewords)
        for position in 0..<blocks[0].count {
            for (index, block) in blocks.enumerated()
            where position != shortLength - eccLength || index >= shortBlocks {
                result.append(block[position])
            }
        }
        return result
    }

    /// The generator polynomial of `degree`, highest coefficient first, leading 1 omitted.
    static func generator(degree: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: degree - 1) + [1]
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in result.indices {
                result[index] = multiply(result[index], root)
                if index + 1 < result.count { result[index] ^= result[index + 1] }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    /// The remainder of `data` divided by `divisor`: the error correction codewords.
    static func remainder(of data: [UInt8], divisor: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for index in result.indices { result[index] ^= multiply(divisor[index], factor) }
        }
        return result
    }

    /// Multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1.
    static func multiply(_ left: UInt8, _ right: UInt8) -> UInt8 {
        var product = 0
        for bit in stride(from: 7, through: 0, by: -1) {
            product = (product << 1) ^ ((product >> 7) * 0x11D)
            product ^= (Int(right) >> bit & 1) * Int(left)
        }
        return UInt8(product)
    }
}
