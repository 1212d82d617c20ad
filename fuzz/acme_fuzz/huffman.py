"""HPACK's Huffman code (RFC 7541, appendix B) in linear time, byte for byte what hpack's own
encoder writes. hpack builds one integer for the whole value, shifting it once per byte, which
is quadratic: a 64 KB header cost the fuzz worker a few hundred milliseconds of CPU per call,
most of the suite's time. The headers on the wire do not change, only the cost of making them."""

from __future__ import annotations

from hpack.huffman_constants import REQUEST_CODES, REQUEST_CODES_LENGTH

# Each byte's code as a string of bits, from hpack's own table.
_BITS = [format(code, f"0{length}b") for code, length in zip(REQUEST_CODES, REQUEST_CODES_LENGTH)]


class HuffmanEncoder:
    """Drop-in for hpack.huffman.HuffmanEncoder (hpack.Encoder.huffman_coder)."""

    def encode(self, data: bytes | None) -> bytes:
        if not data:
            return b""
        bits = "".join([_BITS[byte] for byte in data])
        bits += "1" * (-len(bits) % 8)  # padded with the most significant bits of EOS: ones
        return int(bits, 2).to_bytes(len(bits) // 8, "big")
