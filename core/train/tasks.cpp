#include "core/train/tasks.hpp"

#include <algorithm>
#include <numeric>

namespace posenc::train {

Vocabulary vocabularyOf(Task task, int symbols) {
  Vocabulary v;
  v.symbols = symbols;
  v.values = task == Task::Retrieval ? kRetrievalValues : 0;
  return v;
}

int sequenceTokens(Task task, int n) { return task == Task::Retrieval ? n + 4 : 2 * n + 2; }
int answerTokens(Task task, int n) { return task == Task::Retrieval ? 2 : n + 1; }

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
  }
  t.push_back(v.eos());
  return e;
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
      b.positions.push_back(p);
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

}  // namespace posenc::train
