/// A canonical Huffman code whose lengths never exceed a limit, as DEFLATE requires
/// (15 bits for literals, lengths and distances; 7 bits for the code-length alphabet).
struct HuffmanCode {
    /// The code length of every symbol; 0 for symbols that never occur.
    let lengths: [Int]
    /// The canonical code of every symbol (RFC 1951, section 3.2.2), most significant bit first.
    let codes: [UInt16]

    /// The optimal length-limited code for `frequencies`.
    ///
    /// Uses package-merge (Larmore and Hirschberg), which is exact where zlib's overflow fix-up is
    /// a heuristic. At least two symbols get a code even if fewer occur, because some inflaters
    /// reject a code with a single symbol.
    init(frequencies: [Int], maximumLength: Int) {
        var used = frequencies.indices.filter { frequencies[$0] > 0 }
        for filler in frequencies.indices where used.count < 2 && !used.contains(filler) {
            used.append(filler)
        }
        let weights = used.map { max(frequencies[$0], 1) }
        let symbolLengths = Self.packageMergeLengths(weights: weights, maximumLength: maximumLength)
        var lengths = [Int](repeating: 0, count: frequencies.count)
        for (position, symbol) in used.enumerated() {
            lengths[symbol] = symbolLengths[position]
        }
        self.init(lengths: lengths)
    }

    /// The canonical code for known `lengths`, like the fixed code of RFC 1951, section 3.2.6.
    /// `lengths` need not describe a valid code.
    init(lengths: [Int]) {
        self.lengths = lengths
        let longest = lengths.max() ?? 0
        var countPerLength = [Int](repeating: 0, count: longest + 1)
        for length in lengths where length > 0 {
            countPerLength[length] += 1
        }
        var nextCode = [Int](repeating: 0, count: longest + 2)
        var code = 0
        if longest > 0 {
            for length in 1...longest {
                code = (code + countPerLength[length - 1]) << 1
                nextCode[length] = code
            }
        }
        codes = lengths.map { length in
            guard length > 0 else { return 0 }
            defer { nextCode[length] += 1 }
            // Oversubscribed lengths, which tests write on purpose, overflow 16 bits; only the low
            // `length` bits are ever written.
            return UInt16(truncatingIfNeeded: nextCode[length])
        }
    }

    /// The number of bits `frequencies` take with this code.
    func bitCount(for frequencies: [Int]) -> Int {
        zip(frequencies, lengths).reduce(0) { $0 + $1.0 * $1.1 }
    }

    /// Code lengths, in the order of `weights`, from package-merge.
    ///
    /// Each of the `maximumLength` rounds pairs up the cheapest items of the previous round
    /// ("packages") and merges them with the leaves; a symbol's length is the number of chosen
    /// items among the first `2n - 2` of the last round that contain it.
    private static func packageMergeLengths(weights: [Int], maximumLength: Int) -> [Int] {
        let leafOrder = weights.indices.sorted { weights[$0] < weights[$1] }
        precondition(weights.count <= 1 << maximumLength, "too many symbols for the length limit")

        // Items are leaves (a symbol) or packages (two items of the previous round), stored flat.
        var itemWeights: [Int] = []
        var itemSymbol: [Int] = []  // -1 for packages
        var itemChildren: [(Int, Int)] = []
        func makeLeaf(_ symbol: Int) -> Int {
            itemWeights.append(weights[symbol])
            itemSymbol.append(symbol)
            itemChildren.append((-1, -1))
            return itemWeights.count - 1
        }

        var round = leafOrder.map(makeLeaf)
        for _ in 1..<maximumLength {
            var packages: [Int] = []
            var index = 0
            while index + 1 < round.count {
                itemWeights.append(itemWeights[round[index]] + itemWeights[round[index + 1]])
                itemSymbol.append(-1)
                itemChildren.append((round[index], round[index + 1]))
                packages.append(itemWeights.count - 1)
                index += 2
            }
            let leaves = leafOrder.map(makeLeaf)
            var merged: [Int] = []
            merged.reserveCapacity(leaves.count + packages.count)
            var leafIndex = 0
            var packageIndex = 0
            while leafIndex < leaves.count || packageIndex < packages.count {
                let takeLeaf =
                    packageIndex == packages.count
                    || (leafIndex < leaves.count
                        && itemWeights[leaves[leafIndex]] <= itemWeights[packages[packageIndex]])
                if takeLeaf {
                    merged.append(leaves[leafIndex])
                    leafIndex += 1
                } else {
                    merged.append(packages[packageIndex])
                    packageIndex += 1
                }
            }
            round = merged
        }

        var lengths = [Int](repeating: 0, count: weights.count)
        var pending = Array(round.prefix(2 * weights.count - 2))
        while let item = pending.popLast() {
            if itemSymbol[item] >= 0 {
                lengths[itemSymbol[item]] += 1
            } else {
                pending.append(itemChildren[item].0)
                pending.append(itemChildren[item].1)
            }
        }
        return lengths
    }
}
