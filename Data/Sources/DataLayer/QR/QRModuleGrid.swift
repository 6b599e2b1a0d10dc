/// The grid of one QR code being drawn: function patterns (finders, timing, alignment, format
/// and version information), then the codewords, then the mask.
struct QRModuleGrid {
    let version: QRVersion
    let size: Int
    /// Row-major, true for dark.
    private(set) var modules: [Bool]
    /// Modules that belong to a function pattern, which codewords and masks leave alone.
    private var isFunction: [Bool]

    init(version: QRVersion) {
        self.version = version
        size = version.size
        modules = Array(repeating: false, count: size * size)
        isFunction = modules
        drawFunctionPatterns()
    }

    /// Places the codewords in the zigzag order of the standard, two columns at a time.
    mutating func place(_ codewords: [UInt8]) {
        var bit = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in [right, right - 1] where !isFunction[y * size + x] && bit < codewords.count * 8 {
                    modules[y * size + x] = codewords[bit >> 3] >> (7 - bit & 7) & 1 == 1
                    bit += 1
                }
            }
            right -= 2
        }
    }

    /// Applies `fixed`, or the mask with the lowest penalty, and writes its format bits.
    mutating func applyBestMask(fixed: Int?) {
        let scores = (0..<8).map { penalty(with: $0) }
        let mask = fixed ?? scores.indices.min { scores[$0] < scores[$1] } ?? 0
        applyMask(mask)
        drawFormatBits(mask: mask)
    }

    private func penalty(with mask: Int) -> Int {
        var copy = self
        copy.applyMask(mask)
        copy.drawFormatBits(mask: mask)
        return QRPenalty(size: size, modules: copy.modules).score
    }

    private mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] && Self.masks(mask, x: x, y: y) {
                modules[y * size + x].toggle()
            }
        }
    }

    private static func masks(_ mask: Int, x: Int, y: Int) -> Bool {
        switch mask {
        case 0: (x + y) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (x + y) % 3 == 0
        case 4: (x / 3 + y / 2) % 2 == 0
        case 5: x * y % 2 + x * y % 3 == 0
        case 6: (x * y % 2 + x * y % 3) % 2 == 0
        default: ((x + y) % 2 + x * y % 3) % 2 == 0
        }
    }

    // MARK: Function patterns

    private mutating func set(x: Int, y: Int, dark: Bool) {
        modules[y * size + x] = dark
        isFunction[y * size + x] = true
    }

    private mutating func drawFunctionPatterns() {
        for index in 0..<size {
            set(x: 6, y: index, dark: index % 2 == 0)
            set(x: index, y: 6, dark: index % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] { drawFinder(x: x, y: y) }
        let positions = version.alignmentPositions
        let last = positions.count - 1
        for (i, y) in positions.enumerated() {
            for (j, x) in positions.enumerated() where !(i == 0 && j == 0 || i == 0 && j == last || i == last && j == 0) {
                for dy in -2...2 {
                    for dx in -2...2 { set(x: x + dx, y: y + dy, dark: max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormatBits(mask: 0)
        drawVersionBits()
    }

    /// A finder pattern with its light separator, clipped at the edges.
    private mutating func drawFinder(x: Int, y: Int) {
        for dy in -4...4 {
            for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                let distance = max(abs(dx), abs(dy))
                set(x: x + dx, y: y + dy, dark: distance != 2 && distance != 4)
            }
        }
    }

    /// Level M (00) and the mask, BCH-coded, in both copies; and the dark module.
    private mutating func drawFormatBits(mask: Int) {
        let data = mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { bits >> index & 1 == 1 }
        for index in 0...5 { set(x: 8, y: index, dark: bit(index)) }
        set(x: 8, y: 7, dark: bit(6))
        set(x: 8, y: 8, dark: bit(7))
        set(x: 7, y: 8, dark: bit(8))
        for index in 9..<15 { set(x: 14 - index, y: 8, dark: bit(index)) }
        for index in 0..<8 { set(x: size - 1 - index, y: 8, dark: bit(index)) }
        for index in 8..<15 { set(x: 8, y: size - 15 + index, dark: bit(index)) }
        set(x: 8, y: size - 8, dark: true)
    }

    /// The version, BCH-coded, in two 6×3 blocks (versions 7 and up).
    private mutating func drawVersionBits() {
        guard version.number >= 7 else { return }
        var remainder = version.number
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = version.number << 12 | remainder
        for index in 0..<18 {
            let dark = bits >> index & 1 == 1
            let a = size - 11 + index % 3
            let b = index / 3
            set(x: a, y: b, dark: dark)
            set(x: b, y: a, dark: dark)
        }
    }
}
