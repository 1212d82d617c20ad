"""The runner's gzip bombs inflate to what the README promises, from a few hundred kilobytes."""

import gzip
import unittest
import zlib

from acme_fuzz.runner import LIMITS, _gzip_zeros, _oversize_message


class BombTest(unittest.TestCase):
    def test_zero_bomb_is_256_mib_of_zeros(self):
        bomb = _gzip_zeros(256 * 1024 * 1024)
        self.assertLess(len(bomb), 300 * 1024)
        inflate = zlib.decompressobj(31)
        size, data = 0, bomb
        while data:
            chunk = inflate.decompress(data, 1 << 24)
            self.assertEqual(chunk.count(0), len(chunk), "only zeros")
            size += len(chunk)
            data = inflate.unconsumed_tail
        self.assertTrue(inflate.eof)
        self.assertEqual(size, 256 * 1024 * 1024)

    def test_message_bomb_is_over_the_limit(self):
        for limits in LIMITS.values():
            message = gzip.decompress(gzip.compress(_oversize_message(limits.message_bytes), 9))
            self.assertGreater(len(message), limits.message_bytes)


if __name__ == "__main__":
    unittest.main()
