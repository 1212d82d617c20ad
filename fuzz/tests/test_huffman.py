"""acme_fuzz.huffman writes exactly the bytes hpack's own Huffman encoder writes."""

import random
import unittest

from hpack.huffman import HuffmanEncoder as HpackEncoder
from hpack.huffman_constants import REQUEST_CODES, REQUEST_CODES_LENGTH

from acme_fuzz.huffman import HuffmanEncoder


class HuffmanTest(unittest.TestCase):
    def test_same_bytes_as_hpack(self):
        hpack = HpackEncoder(REQUEST_CODES, REQUEST_CODES_LENGTH)
        ours = HuffmanEncoder()
        rng = random.Random(7)
        samples = [b"", b"a", b"\x00", b"\xff", bytes(range(256)), b"Bearer " + b"t" * 8192,
                   b"application/grpc", b"www.example.com"]
        samples += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))) for _ in range(2000)]
        for data in samples:
            self.assertEqual(ours.encode(data), hpack.encode(data), data[:40])


if __name__ == "__main__":
    unittest.main()
