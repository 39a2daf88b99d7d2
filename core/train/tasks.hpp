// The toy tasks, generated from a seed. A task of length n is one sequence of tokens:
//
//   copy       BOS x1 .. xn SEP x1 .. xn EOS          x drawn uniformly from the symbols
//   reverse    BOS x1 .. xn SEP xn .. x1 EOS
//   repeat     BOS c .. c SEP c .. c EOS              one symbol c, n times on each side: the
//                                                     answer is only a matter of when to stop
//   retrieval  BOS (k1=v1) .. (kn=vn) SEP kq vq EOS   n distinct keys, each written with its value
//                                                     as one token "k=v"; kq is one of the keys,
//                                                     vq its value (one of kRetrievalValues)
//   offset     BOS x1 .. xk y1 .. yn                  a pattern of period k (config.offset):
//                                                     y_t is the token k places before it
//
// The model reads every token but the last and predicts each answer token from the tokens before
// it (copy, reverse, repeat, retrieval: every token after SEP, EOS included; offset: y1 .. yn);
// loss and accuracy count only those. An example is exactly right when every answer token is the
// model's top choice: with teacher forcing that is the same as greedy decoding producing the
// whole answer, so one forward pass decides it.
//
// Retrieval's pairs are single tokens so that looking a key up is one step of attention (the
// query's key against each pair's key, then that pair's value), not a two-token binding that a
// model this small does not learn within a browser's budget (tried: with keys and values as
// separate tokens, RoPE and NoPE models still got only about half of the two-pair examples right
// after 5000-8000 steps, at every length).
//
// The offset task is the one whose rule is a distance: the answer is "what stood k places back",
// whatever the tokens are. Content alone cannot give it: the k prompt tokens x1 .. xk are drawn
// until some symbol occurs twice in them, so the token before an answer is followed by different
// tokens at different places of the pattern (in "a a b a a b ..." an 'a' is followed by 'a' once
// and by 'b' once), and a model that looks a token up by what it is (one step of an induction
// head) is wrong at some place of every period. It has to find the token k back (or, what comes
// to the same, a run of tokens back by their distance). There is no SEP and no EOS: the pattern
// simply goes on, so the answer does not ask the model to count n (which would make this a second
// repeat task). k = 3 by default: the shortest period in which a symbol can recur without the
// pattern being constant, so that every family, NoPE's implicit positions included, can learn it
// at the training lengths (experiment-log.md: the protocol search).
//
// Vocabulary: ids 0..S-1 are the symbols (the keys, in retrieval), then in retrieval only the
// S·R pair tokens (key k with value v at S + k·R + v) and the R value tokens, then BOS, SEP,
// EOS. Retrieval needs n <= S distinct keys. The offset task uses the symbols and BOS.
//
// Positions: a packed sequence's rows are at positions 0 .. T-1, or, with randomised positions
// (config.randomPositions = M), at a sorted draw of T distinct ids from [0, M): a fresh draw for
// every training sequence and a fixed one for every test sequence (from the test stream, so every
// family and seed sees the same ids). Ruoss et al.'s code draws at test time too
// (google-deepmind/randomized_positional_encodings: the evaluation passes a fresh rng to the
// model, whose noisy encodings always sample); so do we. They draw one set of ids per batch
// (its sequences have one length); we draw one per sequence, since ours differ in length.
#pragma once

#include <cstdint>
#include <vector>

#include "core/splitmix64.hpp"
#include "core/train/config.hpp"

namespace posenc::train {

constexpr int kRetrievalValues = 4;

struct Vocabulary {
  int symbols = 0;
  int values = 0;  // kRetrievalValues in retrieval, 0 otherwise
  int offset = 0;  // the offset task's k, 0 otherwise
  int pairs() const { return symbols * values; }
  int pair(int key, int value) const { return symbols + key * values + value; }
  int value(int v) const { return symbols + pairs() + v; }
  int bos() const { return symbols + pairs() + values; }
  int sep() const { return bos() + 1; }
  int eos() const { return bos() + 2; }
  int size() const { return bos() + 3; }
};

Vocabulary vocabularyOf(Task task, int symbols, int offset);
Vocabulary vocabularyOf(const TrainConfig& c);

// Tokens the model reads for a task of length n (the sequence without its last token), and how
// many of them are followed by an answer token.
int sequenceTokens(Task task, const Vocabulary& v, int n);
int sequenceTokens(const TrainConfig& c, int n);
int answerTokens(Task task, int n);

struct Example {
  std::vector<int> tokens;     // the whole sequence, EOS included
  int answerStart = 0;         // index of the first answer token in tokens
  std::vector<int> positions;  // the position of each row read (tokens.size() - 1), or empty: 0, 1, ...
};

Example makeExample(Task task, int n, const Vocabulary& v, SplitMix64& rng);

// A batch of examples packed one after another (no padding): row r of the model's input is
// token tokens[r] at position positions[r] of its sequence.
struct Batch {
  std::vector<int> tokens, positions;
  std::vector<int> starts;        // sequence s is rows starts[s] .. starts[s+1]-1
  std::vector<int> targetRows;    // rows whose next token is an answer token
  std::vector<int> targetTokens;  // that token
  std::vector<int> targetStarts;  // sequence s owns targets targetStarts[s] .. targetStarts[s+1]-1
  int sequences() const { return int(starts.size()) - 1; }
  int rows() const { return int(tokens.size()); }
  int longest() const;
};

Batch pack(const std::vector<Example>& examples);

// Gives the example randomised positions: a sorted draw of its T rows' ids, distinct, from
// [0, M) (T <= M), from rng.
void drawPositions(Example& e, int M, SplitMix64& rng);

// Streams: the training batch of `step`, and the fixed test set of one length. The test set
// depends only on the task, the vocabulary and the length (not on the run's seed), so every
// family and seed is scored on the same sequences.
uint64_t trainStream(double seed, int step);
uint64_t testStream(Task task, int symbols, int n);
// The position draws: of training step `step`, and of the test sequences of length n (the same
// for every family and seed: they depend on the task, the alphabet, the length and M only).
uint64_t trainPositionStream(double seed, int step);
uint64_t testPositionStream(Task task, int symbols, int n, int M);

}  // namespace posenc::train
