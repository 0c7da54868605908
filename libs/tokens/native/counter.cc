// Native token counting for @toolsearch/tokens: the same exact count as tiktoken's
// encode_ordinary, without a JIT to warm up.
//
// tiktoken cuts text into pieces with a regular expression and byte-pair encodes each piece on its
// own. The expression's Unicode classes come down to a few character kinds, so this file decides
// piece boundaries with plain code (the o200k_base and cl100k_base patterns, alternative by
// alternative, as a backtracking matcher takes them), counts a piece that is a token with one table
// lookup, remembers the count of every piece in two bounded direct-mapped tables, and byte-pair
// encodes a new piece with the same merge procedure as tiktoken. Where a boundary depends on a
// character whose kind it does not have (an astral block not handed over yet, a lone surrogate),
// or a piece is longer than kMaxPiece bytes, it stops and reports where: that place is a piece
// boundary, and the JavaScript side hands the block over and counts again, or counts the rest
// with the encoding's own regular expression.
//
// The merge ranks and the character kinds come from JavaScript (the rank files of the tiktoken
// package, and tables built with the patterns' own Unicode classes), so each has one source.

#include <node_api.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

// Character kinds, one per UTF-16 code unit of the Basic Multilingual Plane, from a table the
// JavaScript side builds with the same Unicode classes as the patterns (general categories and
// White_Space). Surrogates are kOther: a boundary that depends on one is left to the expression.
enum Kind : uint8_t {
  kOther = 0,
  kLower = 1,        // Ll
  kUpper = 2,        // Lu, Lt
  kLetterOther = 3,  // Lm, Lo
  kMark = 4,         // M
  kDigit = 5,        // N
  kNewline = 6,      // \r, \n
  kSpace = 7,        // the rest of White_Space
  kPunct = 8,        // everything else
};

constexpr unsigned Bit(int kind) { return 1u << kind; }
constexpr unsigned kLetters = Bit(kLower) | Bit(kUpper) | Bit(kLetterOther);  // \p{L}
// o200k_base splits letters by case: [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] and [\p{Ll}\p{Lm}\p{Lo}\p{M}].
constexpr unsigned kUpperish = Bit(kUpper) | Bit(kLetterOther) | Bit(kMark);
constexpr unsigned kLowerish = Bit(kLower) | Bit(kLetterOther) | Bit(kMark);
constexpr unsigned kPrefix = Bit(kSpace) | Bit(kPunct) | Bit(kMark);  // [^\r\n\p{L}\p{N}]
constexpr unsigned kPunctuation = Bit(kPunct) | Bit(kMark);           // [^\s\p{L}\p{N}]
constexpr int kUncertain = -1;
constexpr int kNoMatch = -2;

// Pieces longer than this many UTF-8 bytes go back to JavaScript (and from there to tiktoken's
// own encoder): the merge procedure is quadratic in the piece's length.
constexpr int kMaxPiece = 96;

// Kinds of the characters outside the Basic Multilingual Plane, in blocks of 4,096 code points
// handed over by JavaScript when a text first needs them (never freed: at most 1 MB). Shared by
// every counter and thread of the process.
constexpr int kAstralBlocks = 256;
std::atomic<const uint8_t*> g_astral_kinds[kAstralBlocks];

inline bool IsHighSurrogate(char16_t c) { return c >= 0xd800 && c <= 0xdbff; }
inline bool IsLowSurrogate(char16_t c) { return c >= 0xdc00 && c <= 0xdfff; }

struct Text {
  const char16_t* chars;
  int end;
  const uint8_t* kinds;
  // The astral block a kind was missing from (-1: none); counting stops where it is needed.
  mutable int missing_block = -1;

  // Code units the character at `at` takes: 2 for a surrogate pair, else 1.
  int Width(int at) const {
    return IsHighSurrogate(chars[at]) && at + 1 < end && IsLowSurrogate(chars[at + 1]) ? 2 : 1;
  }

  // The kind of the character at `at`; kOther for a lone surrogate or an astral character whose
  // block JavaScript has not handed over yet.
  int KindAt(int at) const {
    const char16_t c = chars[at];
    if (c < 0xd800 || c > 0xdfff) return kinds[c];
    if (!IsHighSurrogate(c) || at + 1 >= end || !IsLowSurrogate(chars[at + 1])) return kOther;
    const uint32_t offset = ((c - 0xd800u) << 10) + (chars[at + 1] - 0xdc00u);  // code point - 0x10000
    const uint8_t* block = g_astral_kinds[offset >> 12].load(std::memory_order_acquire);
    if (block == nullptr) {
      missing_block = static_cast<int>(offset >> 12);
      return kOther;
    }
    return block[offset & 0xfff];
  }
};

// 's 't 're 've 'm 'll 'd in any case at `at`: the end of it, or -1.
int ContractionEnd(const Text& text, int at) {
  const char16_t* c = text.chars;
  if (at + 1 >= text.end || c[at] != u'\'') return -1;
  const int a = c[at + 1] | 0x20;
  if (a == 's' || a == 't' || a == 'm' || a == 'd') return at + 2;
  if (at + 2 >= text.end) return -1;
  const int b = c[at + 2] | 0x20;
  if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return at + 3;
  return -1;
}

// The end of the run of characters of the kinds in `set` from `start`, or kUncertain.
int RunEnd(const Text& text, int start, unsigned set) {
  int at = start;
  while (at < text.end) {
    const int kind = text.KindAt(at);
    if (kind == kOther) return kUncertain;
    if (!(Bit(kind) & set)) break;
    at += text.Width(at);
  }
  return at;
}

// \p{N}{1,3} from `start` (a digit).
int DigitsEnd(const Text& text, int start) {
  int at = start + text.Width(start);
  for (int n = 1; n < 3 && at < text.end; ++n) {
    const int kind = text.KindAt(at);
    if (kind == kOther) return kUncertain;
    if (kind != kDigit) break;
    at += text.Width(at);
  }
  return at;
}

// [^\s\p{L}\p{N}]+ from `start`, then [\r\n/]* (o200k_base) or [\r\n]* (cl100k_base).
int PunctuationEnd(const Text& text, int start, bool slashes) {
  int at = RunEnd(text, start, kPunctuation);
  if (at < 0) return at;
  while (at < text.end) {
    const char16_t c = text.chars[at];
    if (c != u'\n' && c != u'\r' && !(slashes && c == u'/')) break;
    ++at;
  }
  return at;
}

// \s*[\r\n]+ (to the last line break of the run), else \s+(?!\S) (all of the run at the end of the
// text, all but its last character before anything else), else \s+ (one character).
int WhitespaceEnd(const Text& text, int start) {
  int at = start;
  int last_break = -1;
  while (at < text.end) {
    const int kind = text.KindAt(at);
    if (kind == kNewline) {
      last_break = at;
    } else if (kind != kSpace) {
      if (kind == kOther) return kUncertain;
      break;
    }
    ++at;
  }
  if (last_break >= 0) return last_break + 1;
  if (at == text.end) return at;
  return at - 1 > start ? at - 1 : at;
}

// o200k_base's first letters alternative from `start`: [upper-ish]*[lower-ish]+, as a
// backtracking matcher takes it. When the upper-ish run is not followed by a lower-ish character,
// the run gives characters back until its last one that is also lower-ish (Lm, Lo or a mark).
int O200kLowerEnd(const Text& text, int start) {
  const int upper = RunEnd(text, start, kUpperish);
  if (upper < 0) return upper;
  if (upper < text.end && (Bit(text.KindAt(upper)) & kLowerish)) return RunEnd(text, upper, kLowerish);
  for (int at = upper; at > start;) {
    int previous = at - 1;  // the start of the character that ends at `at`
    if (IsLowSurrogate(text.chars[previous]) && previous > start && IsHighSurrogate(text.chars[previous - 1]))
      previous -= 1;
    if (Bit(text.KindAt(previous)) & kLowerish) return at;
    at = previous;
  }
  return kNoMatch;
}

// o200k_base's second letters alternative from `start`: [upper-ish]+[lower-ish]*.
int O200kUpperEnd(const Text& text, int start) {
  if (!(Bit(text.KindAt(start)) & kUpperish)) return kNoMatch;
  const int upper = RunEnd(text, start, kUpperish);
  return upper < 0 ? upper : RunEnd(text, upper, kLowerish);
}

int WithContraction(const Text& text, int end) {
  if (end < 0) return end;
  const int contraction = ContractionEnd(text, end);
  return contraction < 0 ? end : contraction;
}

int O200kPieceEnd(const Text& text, int start) {
  const int kind = text.KindAt(start);
  if (kind == kOther) return kUncertain;
  const int next = start + text.Width(start);
  const bool prefixed = (Bit(kind) & kPrefix) && next < text.end;
  if (prefixed && text.KindAt(next) == kOther) return kUncertain;
  // The two letter alternatives, each with its optional leading character first and then without.
  int end = kNoMatch;
  if (prefixed) end = O200kLowerEnd(text, next);
  if (end == kNoMatch && (Bit(kind) & (kLowerish | kUpperish))) end = O200kLowerEnd(text, start);
  if (end == kNoMatch && prefixed) end = O200kUpperEnd(text, next);
  if (end == kNoMatch && (Bit(kind) & kUpperish)) end = O200kUpperEnd(text, start);
  if (end != kNoMatch) return WithContraction(text, end);
  if (kind == kDigit) return DigitsEnd(text, start);
  if (text.chars[start] == u' ' && start + 1 < text.end && (Bit(text.KindAt(start + 1)) & kPunctuation))
    return PunctuationEnd(text, start + 1, true);
  if (Bit(kind) & kPunctuation) return PunctuationEnd(text, start, true);
  return WhitespaceEnd(text, start);
}

int Cl100kPieceEnd(const Text& text, int start) {
  const int kind = text.KindAt(start);
  if (kind == kOther) return kUncertain;
  const int contraction = ContractionEnd(text, start);  // comes first, wherever it stands
  if (contraction >= 0) return contraction;
  const int next = start + text.Width(start);
  if ((Bit(kind) & kPrefix) && next < text.end) {
    const int next_kind = text.KindAt(next);
    if (next_kind == kOther) return kUncertain;
    if (Bit(next_kind) & kLetters) return RunEnd(text, next, kLetters);
  }
  if (Bit(kind) & kLetters) return RunEnd(text, start, kLetters);
  if (kind == kDigit) return DigitsEnd(text, start);
  if (text.chars[start] == u' ' && start + 1 < text.end && (Bit(text.KindAt(start + 1)) & kPunctuation))
    return PunctuationEnd(text, start + 1, false);
  if (Bit(kind) & kPunctuation) return PunctuationEnd(text, start, false);
  return WhitespaceEnd(text, start);
}

// ---- Merge ranks ------------------------------------------------------------------------------

inline uint64_t HashBytes(const uint8_t* bytes, int length) {
  uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a, 64 bits
  for (int i = 0; i < length; ++i) hash = (hash ^ bytes[i]) * 0x100000001b3ULL;
  return hash ^ (hash >> 29);
}

// The merge ranks as an open-addressing table keyed by a token's bytes. A slot holds a token of
// up to 8 bytes in full (most tokens), so looking one up reads a single cache line; a longer token's
// slot holds a fingerprint of its hash and where its bytes are.
class RankTable {
 public:
  RankTable(const uint8_t* bytes, size_t byte_count, const int32_t* starts, const int32_t* ranks, size_t count)
      : bytes_(bytes, bytes + byte_count) {
    size_t size = 1024;
    while (size < count * 2) size *= 2;
    slots_.assign(size, Slot{0, 0, -1});
    mask_ = size - 1;
    for (int i = 0; i < 65536; ++i) pairs_[i] = -1;
    for (size_t token = 0; token < count; ++token) {
      const int start = starts[token];
      const int length = starts[token + 1] - start;
      const uint8_t* token_bytes = bytes_.data() + start;
      const uint64_t hash = HashBytes(token_bytes, length);
      size_t slot = hash & mask_;
      while (slots_[slot].rank >= 0) slot = (slot + 1) & mask_;
      slots_[slot] = Slot{length <= 8 ? Pack(token_bytes, length) : (hash >> 32) << 32 | static_cast<uint32_t>(start),
                          static_cast<uint32_t>(length), ranks[token]};
      if (length == 2) pairs_[token_bytes[0] * 256 + token_bytes[1]] = ranks[token];
    }
  }

  // The rank of `bytes`, or -1 when they are not a token.
  int Rank(const uint8_t* bytes, int length) const {
    const uint64_t hash = HashBytes(bytes, length);
    if (length <= 8) {
      const uint64_t packed = Pack(bytes, length);
      for (size_t slot = hash & mask_;; slot = (slot + 1) & mask_) {
        const Slot& entry = slots_[slot];
        if (entry.rank < 0) return -1;
        if (entry.length == static_cast<uint32_t>(length) && entry.key == packed) return entry.rank;
      }
    }
    const uint64_t print = hash >> 32;
    for (size_t slot = hash & mask_;; slot = (slot + 1) & mask_) {
      const Slot& entry = slots_[slot];
      if (entry.rank < 0) return -1;
      if (entry.length != static_cast<uint32_t>(length) || entry.key >> 32 != print) continue;
      if (std::memcmp(bytes_.data() + static_cast<uint32_t>(entry.key), bytes, length) == 0) return entry.rank;
    }
  }

  // The rank of a two-byte token, or -1.
  int PairRank(uint8_t first, uint8_t second) const { return pairs_[first * 256 + second]; }

 private:
  struct Slot {
    uint64_t key;     // up to 8 bytes: the bytes themselves; longer: hash fingerprint << 32 | offset
    uint32_t length;  // in bytes
    int32_t rank;     // -1: empty
  };

  static uint64_t Pack(const uint8_t* bytes, int length) {
    uint64_t packed = 0;
    for (int i = 0; i < length; ++i) packed |= static_cast<uint64_t>(bytes[i]) << (8 * i);
    return packed;
  }

  std::vector<uint8_t> bytes_;
  std::vector<Slot> slots_;
  size_t mask_ = 0;
  int32_t pairs_[65536];
};

// The number of tokens byte-pair encoding gives one piece, following tiktoken's merge procedure:
// repeatedly merge the adjacent pair whose joined bytes have the lowest rank (the leftmost on
// ties) until no pair has a rank. The same procedure as bpeTokenCount in bpe-ranks.ts.
int BpeTokenCount(const uint8_t* bytes, int length, const RankTable& table) {
  if (length <= 1) return length;
  if (length == 2) return table.PairRank(bytes[0], bytes[1]) >= 0 ? 1 : 2;
  if (table.Rank(bytes, length) >= 0) return 1;
  constexpr int kNone = std::numeric_limits<int>::max();
  int starts[kMaxPiece + 1];
  int pair_ranks[kMaxPiece + 1];
  int parts = length + 1;
  for (int i = 0; i <= length; ++i) starts[i] = i;
  for (int i = 0; i < length - 1; ++i) {
    const int rank = table.PairRank(bytes[i], bytes[i + 1]);
    pair_ranks[i] = rank < 0 ? kNone : rank;
  }
  pair_ranks[length - 1] = kNone;
  pair_ranks[length] = kNone;
  auto joined = [&](int start, int end) {
    const int rank = table.Rank(bytes + start, end - start);
    return rank < 0 ? kNone : rank;
  };
  for (;;) {
    int best = kNone;
    int at = -1;
    for (int i = 0; i < parts - 2; ++i) {
      if (pair_ranks[i] < best) {
        best = pair_ranks[i];
        at = i;
      }
    }
    if (at < 0) break;
    if (at > 0) pair_ranks[at - 1] = joined(starts[at - 1], starts[at + 2]);
    pair_ranks[at] = at + 3 < parts ? joined(starts[at], starts[at + 3]) : kNone;
    for (int i = at + 1; i < parts - 1; ++i) {
      starts[i] = starts[i + 1];
      pair_ranks[i] = pair_ranks[i + 1];
    }
    --parts;
  }
  return parts - 1;
}

// ---- The counter ------------------------------------------------------------------------------

// What the counters of one encoding share, read-only once built.
struct Encoding {
  Encoding(RankTable ranks, bool is_cl100k, const uint8_t* kind_table)
      : table(std::move(ranks)), cl100k(is_cl100k), kinds(kind_table, kind_table + 65536) {}
  RankTable table;
  bool cl100k;
  std::vector<uint8_t> kinds;
};

// Counts text with its own piece tables; one thread at a time.
class Counter {
 public:
  explicit Counter(std::shared_ptr<const Encoding> encoding)
      : encoding_(std::move(encoding)),
        table_(encoding_->table),
        cl100k_(encoding_->cl100k),
        kinds_(encoding_->kinds.data()) {
    short_.resize(kShortSlots);
    long_.resize(kLongSlots);
  }

  // Counts `chars[0, length)` until done or until the rest needs the regular expression; returns
  // the count and sets `stop` to where it ended (a piece boundary; `length` when done).
  // `missing_block` is the astral block whose kinds are needed to go on (-1: none).
  int Count(const char16_t* chars, int length, int* stop, int* missing_block) {
    const Text text{chars, length, kinds_};
    int total = 0;
    int start = 0;
    while (start < length) {
      const int end = cl100k_ ? Cl100kPieceEnd(text, start) : O200kPieceEnd(text, start);
      if (end < 0) break;
      const int tokens = PieceCount(chars + start, end - start);
      if (tokens < 0) break;
      total += tokens;
      start = end;
    }
    *stop = start;
    *missing_block = start < length ? text.missing_block : -1;
    return total;
  }

 private:
  static constexpr int kShortBytes = 16;
  static constexpr size_t kShortSlots = 1 << 17;
  static constexpr size_t kLongSlots = 1 << 15;

  // One remembered piece of up to 16 bytes: its bytes as two words (zero-padded), its length
  // (0: empty slot) and its count.
  struct ShortPiece {
    uint64_t low;
    uint64_t high;
    uint32_t length;
    uint32_t count;
  };

  struct LongPiece {
    uint64_t hash;
    uint32_t length;  // 0: empty
    uint32_t count;
    uint8_t bytes[kMaxPiece];
  };

  // The count of one piece, or -1 when it is longer than kMaxPiece bytes.
  int PieceCount(const char16_t* piece, int length) {
    // Most pieces are short ASCII: their bytes go straight into two words, kept in registers.
    if (length <= kShortBytes) {
      uint64_t low = 0, high = 0;
      int i = 0;
      for (; i < length && i < 8; ++i) {
        if (piece[i] >= 0x80) break;
        low |= static_cast<uint64_t>(piece[i]) << (8 * i);
      }
      if (i == 8 || i == length) {
        for (; i < length; ++i) {
          if (piece[i] >= 0x80) break;
          high |= static_cast<uint64_t>(piece[i]) << (8 * (i - 8));
        }
        if (i == length) return ShortPieceCount(low, high, length);
      }
    }
    alignas(8) uint8_t bytes[kMaxPiece + 16];
    std::memset(bytes, 0, 16);
    int size = 0;
    for (int i = 0; i < length; ++i) {
      if (size + 4 > kMaxPiece) return -1;
      if (IsHighSurrogate(piece[i]) && i + 1 < length && IsLowSurrogate(piece[i + 1])) {
        const uint32_t point = 0x10000 + ((piece[i] - 0xd800u) << 10) + (piece[i + 1] - 0xdc00u);
        bytes[size] = static_cast<uint8_t>(0xf0 | (point >> 18));
        bytes[size + 1] = static_cast<uint8_t>(0x80 | ((point >> 12) & 0x3f));
        bytes[size + 2] = static_cast<uint8_t>(0x80 | ((point >> 6) & 0x3f));
        bytes[size + 3] = static_cast<uint8_t>(0x80 | (point & 0x3f));
        size += 4;
        ++i;
        continue;
      }
      size = PutUtf8(bytes, size, piece[i]);
    }
    if (size > kShortBytes) return LongPieceCount(bytes, size);
    uint64_t low = 0, high = 0;
    for (int i = 0; i < 8; ++i) low |= static_cast<uint64_t>(bytes[i]) << (8 * i);
    for (int i = 0; i < 8; ++i) high |= static_cast<uint64_t>(bytes[8 + i]) << (8 * i);
    return ShortPieceCount(low, high, size);
  }

  // The count of a piece of up to 16 bytes, given as two words (byte i of the piece in bits
  // 8i..8i+7 of the first word, then of the second; zero-padded), whatever the machine's byte order.
  int ShortPieceCount(uint64_t low, uint64_t high, int size) {
    uint64_t hash = (low ^ (static_cast<uint64_t>(size) << 59)) * 0x9e3779b97f4a7c15ULL;
    hash = (hash ^ (hash >> 31) ^ high) * 0xbf58476d1ce4e5b9ULL;
    ShortPiece& slot = short_[(hash >> 40) & (kShortSlots - 1)];
    if (slot.length == static_cast<uint32_t>(size) && slot.low == low && slot.high == high) return slot.count;
    uint8_t bytes[16];
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>(low >> (8 * i));
    for (int i = 0; i < 8; ++i) bytes[8 + i] = static_cast<uint8_t>(high >> (8 * i));
    const int count = BpeTokenCount(bytes, size, table_);
    slot = ShortPiece{low, high, static_cast<uint32_t>(size), static_cast<uint32_t>(count)};
    return count;
  }

  // A code unit of the Basic Multilingual Plane, not a surrogate, as UTF-8 at `bytes[size]`; the
  // new size. (Pieces never hold a lone surrogate: those are kOther.)
  static int PutUtf8(uint8_t* bytes, int size, char16_t c) {
    if (c < 0x80) {
      bytes[size] = static_cast<uint8_t>(c);
      return size + 1;
    }
    if (c < 0x800) {
      bytes[size] = static_cast<uint8_t>(0xc0 | (c >> 6));
      bytes[size + 1] = static_cast<uint8_t>(0x80 | (c & 0x3f));
      return size + 2;
    }
    bytes[size] = static_cast<uint8_t>(0xe0 | (c >> 12));
    bytes[size + 1] = static_cast<uint8_t>(0x80 | ((c >> 6) & 0x3f));
    bytes[size + 2] = static_cast<uint8_t>(0x80 | (c & 0x3f));
    return size + 3;
  }

  // Pieces of 17 to kMaxPiece bytes: a direct-mapped table that keeps their bytes, so a lookup
  // needs no allocation and memory stays bounded.
  int LongPieceCount(const uint8_t* bytes, int size) {
    const uint64_t hash = HashBytes(bytes, size);
    LongPiece& slot = long_[hash & (kLongSlots - 1)];
    if (slot.hash == hash && slot.length == static_cast<uint32_t>(size) && std::memcmp(slot.bytes, bytes, size) == 0)
      return slot.count;
    const int count = BpeTokenCount(bytes, size, table_);
    slot.hash = hash;
    slot.length = static_cast<uint32_t>(size);
    slot.count = static_cast<uint32_t>(count);
    std::memcpy(slot.bytes, bytes, size);
    return count;
  }

  std::shared_ptr<const Encoding> encoding_;
  const RankTable& table_;
  bool cl100k_;
  const uint8_t* kinds_;
  std::vector<ShortPiece> short_;
  std::vector<LongPiece> long_;
};

// What JavaScript holds for one encoding: the counter for single texts, and a second one with its
// own tables for batches, which count on a thread of their own.
struct Handle {
  explicit Handle(const std::shared_ptr<const Encoding>& encoding) : encoding(encoding), main(encoding) {}
  std::shared_ptr<const Encoding> encoding;
  Counter main;
  std::unique_ptr<Counter> background;
  bool batch_open = false;
};

// A batch: JavaScript hands texts over one at a time (while it produces the next one) and a worker
// thread counts them as they come. Finish() waits for the worker; nothing else touches the
// background counter, and one handle has at most one batch open.
class Batch {
 public:
  explicit Batch(Handle* handle) : handle_(handle) {
    if (!handle_->background) handle_->background = std::make_unique<Counter>(handle_->encoding);
    worker_ = std::thread([this] { Run(); });  // throws when no thread can be started
    handle_->batch_open = true;
  }
  ~Batch() { Finish(); }

  void Push(std::u16string text) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      texts_.push_back(std::move(text));
    }
    ready_.notify_one();
  }

  // Waits for every text to be counted; then results()[3i] is text i's count, results()[3i + 1]
  // where counting stopped and results()[3i + 2] the astral block it needed there (or -1).
  void Finish() {
    if (finished_) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    ready_.notify_one();
    worker_.join();
    finished_ = true;
    handle_->batch_open = false;
  }

  const std::vector<int32_t>& results() const { return results_; }

 private:
  void Run() {
    for (size_t next = 0;; ++next) {
      std::u16string* text = nullptr;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [&] { return next < texts_.size() || closed_; });
        if (next == texts_.size()) return;
        text = &texts_[next];  // a deque keeps its elements in place as it grows
      }
      int stop = 0, missing_block = -1;
      const int tokens =
          handle_->background->Count(text->data(), static_cast<int>(text->size()), &stop, &missing_block);
      results_.push_back(tokens);  // read only after the join
      results_.push_back(stop);
      results_.push_back(missing_block);
      std::u16string().swap(*text);
    }
  }

  Handle* handle_;
  std::thread worker_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::u16string> texts_;
  bool closed_ = false;
  bool finished_ = false;
  std::vector<int32_t> results_;
};

// ---- N-API ------------------------------------------------------------------------------------

napi_value Throw(napi_env env, const char* message) {
  napi_throw_type_error(env, nullptr, message);
  return nullptr;
}

// The call's first N arguments into `args`; false when fewer were passed.
template <size_t N>
bool Arguments(napi_env env, napi_callback_info info, napi_value (&args)[N]) {
  size_t argc = N;
  return napi_get_cb_info(env, info, &argc, args, nullptr, nullptr) == napi_ok && argc >= N;
}

// The native object behind an external handle, or nullptr.
template <typename T>
T* External(napi_env env, napi_value value) {
  void* data = nullptr;
  if (napi_get_value_external(env, value, &data) != napi_ok) return nullptr;
  return static_cast<T*>(data);
}

template <typename T>
bool TypedArray(napi_env env, napi_value value, napi_typedarray_type want, T** data, size_t* length) {
  bool is_typed = false;
  if (napi_is_typedarray(env, value, &is_typed) != napi_ok || !is_typed) return false;
  napi_typedarray_type type;
  void* raw = nullptr;
  if (napi_get_typedarray_info(env, value, &type, length, &raw, nullptr, nullptr) != napi_ok || type != want)
    return false;
  *data = static_cast<T*>(raw);
  return true;
}

// A table of `count` character kinds (a Uint8Array), or nullptr when `value` is not one or holds
// an unknown kind (kOther only where `other_allowed`: the BMP table marks surrogates with it).
const uint8_t* KindTable(napi_env env, napi_value value, size_t count, bool other_allowed) {
  uint8_t* kinds = nullptr;
  size_t length = 0;
  if (!TypedArray(env, value, napi_uint8_array, &kinds, &length) || length != count) return nullptr;
  for (size_t i = 0; i < length; ++i)
    if (kinds[i] > kPunct || (!other_allowed && kinds[i] == kOther)) return nullptr;
  return kinds;
}

// A JavaScript string's UTF-16 code units into `out` (resized to fit); false when it is no string.
template <typename Units>
bool Utf16(napi_env env, napi_value value, Units* out, size_t* length) {
  if (napi_get_value_string_utf16(env, value, nullptr, 0, length) != napi_ok) return false;
  if (out->size() < *length + 1) out->resize(*length + 1);
  return napi_get_value_string_utf16(env, value, out->data(), *length + 1, length) == napi_ok;
}

thread_local std::vector<char16_t> g_text;  // the text being counted, per JavaScript thread

// createCounter(bytes: Uint8Array, starts: Int32Array, ranks: Int32Array, cl100k: boolean,
//               kinds: Uint8Array(65536)): handle
napi_value CreateCounter(napi_env env, napi_callback_info info) {
  napi_value args[5];
  if (!Arguments(env, info, args))
    return Throw(env, "createCounter(bytes, starts, ranks, cl100k, kinds) needs five arguments");
  uint8_t* bytes = nullptr;
  int32_t* starts = nullptr;
  int32_t* ranks = nullptr;
  size_t byte_count = 0, start_count = 0, rank_count = 0;
  if (!TypedArray(env, args[0], napi_uint8_array, &bytes, &byte_count) ||
      !TypedArray(env, args[1], napi_int32_array, &starts, &start_count) ||
      !TypedArray(env, args[2], napi_int32_array, &ranks, &rank_count) || start_count != rank_count + 1)
    return Throw(env, "createCounter expects a Uint8Array and two Int32Arrays (starts one longer than ranks)");
  for (size_t i = 0; i + 1 < start_count; ++i)
    if (starts[i] < 0 || starts[i] > starts[i + 1] || static_cast<size_t>(starts[i + 1]) > byte_count)
      return Throw(env, "createCounter: token offsets out of order or out of range");
  const uint8_t* kinds = KindTable(env, args[4], 65536, true);
  if (kinds == nullptr) return Throw(env, "createCounter expects a Uint8Array of 65536 known character kinds");
  bool cl100k = false;
  napi_get_value_bool(env, args[3], &cl100k);
  auto* state = new Handle(
      std::make_shared<const Encoding>(RankTable(bytes, byte_count, starts, ranks, rank_count), cl100k, kinds));
  napi_value handle;
  napi_create_external(
      env, state, [](napi_env, void* data, void*) { delete static_cast<Handle*>(data); }, nullptr, &handle);
  return handle;
}

// count(handle, text: string, out: Int32Array): out[0] = tokens, out[1] = where counting stopped,
// out[2] = the astral block of character kinds it needs to go on from there (-1: none)
napi_value Count(napi_env env, napi_callback_info info) {
  napi_value args[3];
  if (!Arguments(env, info, args)) return Throw(env, "count(handle, text, out) needs three arguments");
  auto* handle = External<Handle>(env, args[0]);
  if (handle == nullptr) return Throw(env, "count: the first argument is not a counter handle");
  int32_t* out = nullptr;
  size_t out_length = 0;
  if (!TypedArray(env, args[2], napi_int32_array, &out, &out_length) || out_length < 3)
    return Throw(env, "count: out must be an Int32Array of length 3");
  size_t length = 0;
  if (!Utf16(env, args[1], &g_text, &length)) return Throw(env, "count: text must be a string");
  int stop = 0, missing_block = -1;
  out[0] = handle->main.Count(g_text.data(), static_cast<int>(length), &stop, &missing_block);
  out[1] = stop;
  out[2] = missing_block;
  if (g_text.size() > (1u << 22)) std::vector<char16_t>().swap(g_text);  // do not keep a huge buffer
  return nullptr;
}

// beginBatch(handle): a batch handle, or undefined when the handle has one open already or no
// thread could be started (the caller then counts one text at a time).
napi_value BeginBatch(napi_env env, napi_callback_info info) {
  napi_value args[1];
  auto* handle = Arguments(env, info, args) ? External<Handle>(env, args[0]) : nullptr;
  if (handle == nullptr) return Throw(env, "beginBatch: the argument is not a counter handle");
  napi_value result;
  napi_get_undefined(env, &result);
  if (handle->batch_open) return result;
  Batch* batch = nullptr;
  try {
    batch = new Batch(handle);
  } catch (...) {
    return result;
  }
  // If JavaScript drops a batch without finishing it, the finalizer still waits for its worker.
  napi_create_external(
      env, batch, [](napi_env, void* batch_data, void*) { delete static_cast<Batch*>(batch_data); }, nullptr,
      &result);
  return result;
}

// pushBatch(batch, text: string)
napi_value PushBatch(napi_env env, napi_callback_info info) {
  napi_value args[2];
  auto* batch = Arguments(env, info, args) ? External<Batch>(env, args[0]) : nullptr;
  if (batch == nullptr) return Throw(env, "pushBatch(batch, text) needs a batch handle and a string");
  std::u16string text;
  size_t length = 0;
  if (!Utf16(env, args[1], &text, &length)) return Throw(env, "pushBatch: text must be a string");
  text.resize(length);
  batch->Push(std::move(text));
  return nullptr;
}

// finishBatch(batch): Int32Array [count, stop, missing block] per text, in the order pushed
napi_value FinishBatch(napi_env env, napi_callback_info info) {
  napi_value args[1];
  auto* batch = Arguments(env, info, args) ? External<Batch>(env, args[0]) : nullptr;
  if (batch == nullptr) return Throw(env, "finishBatch: the argument is not a batch handle");
  batch->Finish();
  const std::vector<int32_t>& results = batch->results();
  void* raw = nullptr;
  napi_value buffer, array;
  napi_create_arraybuffer(env, results.size() * sizeof(int32_t), &raw, &buffer);
  if (!results.empty()) std::memcpy(raw, results.data(), results.size() * sizeof(int32_t));
  napi_create_typedarray(env, napi_int32_array, results.size(), buffer, 0, &array);
  return array;
}

// setAstralKinds(block: number, kinds: Uint8Array(4096)): the kinds of code points
// 0x10000 + block * 4096 ... + 4095. The first call for a block wins; later ones are ignored.
napi_value SetAstralKinds(napi_env env, napi_callback_info info) {
  napi_value args[2];
  int32_t block = -1;
  if (!Arguments(env, info, args) || napi_get_value_int32(env, args[0], &block) != napi_ok || block < 0 ||
      block >= kAstralBlocks)
    return Throw(env, "setAstralKinds: the block must be an integer from 0 to 255");
  const uint8_t* kinds = KindTable(env, args[1], 4096, false);
  if (kinds == nullptr) return Throw(env, "setAstralKinds expects a Uint8Array of 4096 known character kinds");
  auto* copy = new uint8_t[4096];
  std::memcpy(copy, kinds, 4096);
  const uint8_t* expected = nullptr;
  if (!g_astral_kinds[block].compare_exchange_strong(expected, copy, std::memory_order_acq_rel)) delete[] copy;
  return nullptr;
}

napi_value Init(napi_env env, napi_value exports) {
  napi_value fn;
  napi_create_function(env, "setAstralKinds", NAPI_AUTO_LENGTH, SetAstralKinds, nullptr, &fn);
  napi_set_named_property(env, exports, "setAstralKinds", fn);
  napi_create_function(env, "beginBatch", NAPI_AUTO_LENGTH, BeginBatch, nullptr, &fn);
  napi_set_named_property(env, exports, "beginBatch", fn);
  napi_create_function(env, "pushBatch", NAPI_AUTO_LENGTH, PushBatch, nullptr, &fn);
  napi_set_named_property(env, exports, "pushBatch", fn);
  napi_create_function(env, "finishBatch", NAPI_AUTO_LENGTH, FinishBatch, nullptr, &fn);
  napi_set_named_property(env, exports, "finishBatch", fn);
  napi_create_function(env, "createCounter", NAPI_AUTO_LENGTH, CreateCounter, nullptr, &fn);
  napi_set_named_property(env, exports, "createCounter", fn);
  napi_create_function(env, "count", NAPI_AUTO_LENGTH, Count, nullptr, &fn);
  napi_set_named_property(env, exports, "count", fn);
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
