import Domain
import Foundation

/// Grey PNG files written by hand for the picture reader's tests: 8-bit grey, deflate's stored
/// blocks (no compression library needed), with the CRCs and checksum a decoder checks.
enum TestPNG {
    /// `codes` drawn side by side, each `scale` pixels a module with a quiet zone of 4 modules;
    /// dark modules black on white, or white on black when `inverted`.
    static func picture(of codes: [QRCode], scale: Int = 4, inverted: Bool = false) -> Data {
        let sides = codes.map { ($0.size + 8) * scale }
        let width = sides.reduce(0, +)
        let height = sides.max() ?? 1
        var pixels = [UInt8](repeating: inverted ? 0 : 255, count: width * height)
        var left = 0
        for (code, side) in zip(codes, sides) {
            for y in 0..<side {
                for x in 0..<side where code.isDark(row: y / scale - 4, column: x / scale - 4) {
                    pixels[y * width + left + x] = inverted ? 255 : 0
                }
            }
            left += side
        }
        return png(width: width, height: height, grey: pixels)
    }

    /// A PNG of `grey` (one byte a pixel, row after row).
    static func png(width: Int, height: Int, grey: [UInt8]) -> Data {
        var raw: [UInt8] = []
        raw.reserveCapacity((width + 1) * height)
        for row in 0..<height {
            raw.append(0)  // filter: none
            raw.append(contentsOf: grey[(row * width)..<((row + 1) * width)])
        }
        return header(width: width, height: height) + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
    }

    /// A picture claiming `width` × `height` pixels with the data of a few rows only: what a
    /// decompression bomb looks like to a decoder until it inflates.
    static func claiming(width: Int, height: Int) -> Data {
        header(width: width, height: height) + chunk("IDAT", zlibStored([UInt8](repeating: 0, count: 4_096))) + chunk("IEND", [])
    }

    /// The signature and IHDR alone.
    static func header(width: Int, height: Int) -> Data {
        var ihdr = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        ihdr += [8, 0, 0, 0, 0]  // 8 bits, grey, deflate, adaptive filtering, not interlaced
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + chunk("IHDR", ihdr)
    }

    /// `bytes` with each chunk's CRC made right again, as far as its chunks can be walked: a
    /// mutated picture that gets past the CRCs to the decoder's inner parts.
    static func fixingCRCs(_ bytes: [UInt8]) -> [UInt8] {
        var fixed = bytes
        var offset = 8
        while offset + 12 <= fixed.count {
            let length = fixed[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let end = offset + 8 + length
            guard length >= 0, end + 4 <= fixed.count else { break }
            let crc = bigEndian(crc32(Array(fixed[(offset + 4)..<end])))
            fixed.replaceSubrange(end..<(end + 4), with: crc)
            offset = end + 4
        }
        return fixed
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> Data {
        let typed = Array(type.utf8) + body
        return Data(bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed)))
    }

    private static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let last: UInt8 = offset + count == bytes.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += bytes[offset..<(offset + count)]
            offset += count
        } while offset < bytes.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
