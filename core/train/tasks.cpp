#include "core/train/tasks.hpp"

#include <algorithm>
#include <numeric>

namespace posenc::train {

Vocabulary vocabularyOf(Task task, int symbols, int offset) {
  Vocabulary v;
  v.symbols = symbols;
  v.values = task == Task::Retrieval ? kRetrievalValues : 0;
  v.offset = task == Task::Offset ? offset : 0;
  return v;
}

Vocabulary vocabularyOf(const TrainConfig& c) { return vocabularyOf(c.task, int(c.symbols), int(c.offset)); }

int sequenceTokens(Task task, const Vocabulary& v, int n) {
  switch (task) {
    case Task::Retrieval: return n + 4;
    case Task::Offset: return v.offset + n;  // BOS, k prompt tokens, n answers, minus the last
    default: return 2 * n + 2;
  }
}
int sequenceTokens(const TrainConfig& c, int n) { return sequenceTokens(c.task, vocabularyOf(c), n); }
int answerTokens(Task task, int n) {
  switch (task) {
    case Task::Retrieval: return 2;
    case Task::Offset: return n;
    default: return n + 1;
  }
}

namespace {
int draw(SplitMix64& rng, int below) { return int(rng.uniform() * below); }
}  // namespace

Example makeExample(Task task, int n, const Vocabulary& v, SplitMix64& rng) {
  Example e;
  std::vector<int>& t = e.tokens;
  t.push_back(v.bos());
  switch (task) {
    case Task::Copy:
    case Task::Reverse: {
      for (int i = 0; i < n; ++i) t.push_back(draw(rng, v.symbols));
      t.push_back(v.sep());
      e.answerStart = int(t.size());
      if (task == Task::Copy) {
        for (int i = 0; i < n; ++i) t.push_back(t[size_t(1 + i)]);
      } else {
        for (int i = n - 1; i >= 0; --i) t.push_back(t[size_t(1 + i)]);
      }
      break;
    }
    case Task::Repeat: {
      const int c = draw(rng, v.symbols);
      for (int i = 0; i < n; ++i) t.push_back(c);
      t.push_back(v.sep());
      e.answerStart = int(t.size());
      for (int i = 0; i < n; ++i) t.push_back(c);
      break;
    }
    case Task::Retrieval: {
      // n distinct keys: the first n of a seeded shuffle of all of them.
      std::vector<int> keys(static_cast<size_t>(v.symbols));
      std::iota(keys.begin(), keys.end(), 0);
      for (int i = 0; i < n; ++i) std::swap(keys[size_t(i)], keys[size_t(i + draw(rng, v.symbols - i))]);
      std::vector<int> values(static_cast<size_t>(n));
      for (int i = 0; i < n; ++i) {
        values[size_t(i)] = draw(rng, v.values);
        t.push_back(v.pair(keys[size_t(i)], values[size_t(i)]));
      }
      t.push_back(v.sep());
      const int q = draw(rng, n);
      t.push_back(keys[size_t(q)]);
      e.answerStart = int(t.size());
      t.push_back(v.value(values[size_t(q)]));
      break;
    }
    case Task::Offset: {
      // A prompt of k symbols with at least one symbol twice (drawn again until it has one; with
      // S symbols a draw has none with probability S!/((S-k)!·S^k), 0.66 for S = 8, k = 3).
      const int k = v.offset;
      std::vector<int> prompt(static_cast<size_t>(k));
      for (;;) {
        for (int& x : prompt) x = draw(rng, v.symbols);
        bool recurs = false;
        for (int i = 0; i < k && !recurs; ++i) {
          for (int j = 0; j < i; ++j) recurs = recurs || prompt[size_t(i)] == prompt[size_t(j)];
        }
        if (recurs) break;
      }
      t.insert(t.end(), prompt.begin(), prompt.end());
      e.answerStart = int(t.size());
      for (int i = 0; i < n; ++i) t.push_back(t[t.size() - size_t(k)]);
      return e;  // no EOS: the pattern goes on
    }
  }
  t.push_back(v.eos());
  return e;
}

void drawPositions(Example& e, int M, SplitMix64& rng) {
  // A partial Fisher-Yates shuffle of 0 .. M-1: its first T entries are T distinct ids, each
  // T-subset equally likely; sorted, they are the rows' positions.
  const size_t T = e.tokens.size() - 1;
  std::vector<int> ids(static_cast<size_t>(M));
  std::iota(ids.begin(), ids.end(), 0);
  for (size_t i = 0; i < T; ++i) std::swap(ids[i], ids[i + size_t(draw(rng, M - int(i)))]);
  e.positions.assign(ids.begin(), ids.begin() + ptrdiff_t(T));
  std::sort(e.positions.begin(), e.positions.end());
}

int Batch::longest() const {
  int most = 0;
  for (size_t s = 0; s + 1 < starts.size(); ++s) most = std::max(most, starts[s + 1] - starts[s]);
  return most;
}

Batch pack(const std::vector<Example>& examples) {
  Batch b;
  b.starts.push_back(0);
  b.targetStarts.push_back(0);
  for (const Example& e : examples) {
    const int first = b.rows();
    const int read = int(e.tokens.size()) - 1;  // the last token is only a target
    for (int p = 0; p < read; ++p) {
      b.tokens.push_back(e.tokens[size_t(p)]);
      b.positions.push_back(e.positions.empty() ? p : e.positions[size_t(p)]);
    }
    // Row p predicts token p + 1: the answer tokens are predicted from rows answerStart - 1 on.
    for (int p = e.answerStart - 1; p < read; ++p) {
      b.targetRows.push_back(first + p);
      b.targetTokens.push_back(e.tokens[size_t(p + 1)]);
    }
    b.starts.push_back(b.rows());
    b.targetStarts.push_back(int(b.targetRows.size()));
  }
  return b;
}

namespace {
uint64_t mix(uint64_t a, uint64_t b) {
  SplitMix64 g{a ^ (b * 0x9E3779B97F4A7C15ull)};
  return g.next();
}
}  // namespace

uint64_t trainStream(double seed, int step) { return mix(mix(0x7261696eull, uint64_t(seed)), uint64_t(step)); }

uint64_t testStream(Task task, int symbols, int n) {
  return mix(mix(mix(0x74657374ull, uint64_t(task)), uint64_t(symbols)), uint64_t(n));
}

uint64_t trainPositionStream(double seed, int step) {
  return mix(mix(0x706f7369ull, uint64_t(seed)), uint64_t(step));
}

uint64_t testPositionStream(Task task, int symbols, int n, int M) {
  return mix(mix(mix(mix(0x7465706full, uint64_t(task)), uint64_t(symbols)), uint64_t(n)), uint64_t(M));
}

}  // namespace posenc::train
