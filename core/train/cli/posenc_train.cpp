// posenc-train: the native trainer on the command line, printing JSON.
//
//   posenc-train [fields] [--parameters] [--inspect LENGTH:INDEX]...   (LENGTH: a number, max or 2max)
//       trains one run and prints { config, steps, status, log, accuracy, seconds, tensors?,
//       parameters?, inspections? }
//   posenc-train [fields] --dump-step [--double]
//       no training: the initial parameters, the first batch, its logits, loss and gradients,
//       and the parameters after one AdamW update (for tests/train/parity.py)
//   posenc-train [fields] --dump-batches N
//       the first N training batches, as Trainer::run draws them (for tests/bench/torch_train_bench.py)
//   posenc-train [fields] --bench
//       trains without scoring and prints the throughput of steps 5.. in tokens read per
//       second (for npm run bench)
//   posenc-train --families
//       the family registry as JSON (wasm/tools/gen-families.mjs writes wasm/families.gen.js)
//
// Fields take the JS API's names: --task copy --family rope --trainLengths 1-8 --testLengths 1-32
// --symbols 8 --dModel 32 --layers 2 --heads 2 --mlp 128 --steps 600 --batch 32
// --learningRate 0.003 --warmup 60 --weightDecay 0.1 --clip 1 --seed 0 --testExamples 64
// --base 10000 --t5Buckets 32 --t5MaxDistance 128 --offset 3 --nopeEvery 2 --randomPositions 0
// --scalableSoftmax false. A list is "a-b" or "a,b,c" (or both mixed).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/families/registry.hpp"
#include "core/train/model.hpp"
#include "core/train/optimizer.hpp"
#include "core/train/trainer.hpp"

using namespace posenc;
using namespace posenc::train;

namespace {

// [JSON] ---------------------------------------------------------------------------------------
std::string num(double v, bool full = false) {
  if (!std::isfinite(v)) return "null";
  char buf[40];
  std::snprintf(buf, sizeof buf, full ? "%.17g" : "%.9g", v);
  return buf;
}

template <class T>
std::string array(const T* v, size_t n, bool full = false) {
  std::string out = "[";
  for (size_t i = 0; i < n; ++i) {
    if (i) out += ',';
    out += num(double(v[i]), full);
  }
  return out + "]";
}

template <class V>
std::string array(const V& v, bool full = false) {
  return array(v.data(), v.size(), full);
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

std::string configJson(const TrainConfig& c) {
  std::vector<double> tests;
  for (int n : testLengthsOf(c)) tests.push_back(n);
  return "{\"task\":" + quoted(taskName(c.task)) + ",\"family\":" + quoted(families::familyName(c.family)) +
         ",\"trainLengths\":" + array(c.trainLengths) + ",\"testLengths\":" + array(tests) +
         ",\"symbols\":" + num(c.symbols) + ",\"dModel\":" + num(c.dModel) + ",\"layers\":" + num(c.layers) +
         ",\"heads\":" + num(c.heads) + ",\"mlp\":" + num(c.mlp) + ",\"steps\":" + num(c.steps) +
         ",\"batch\":" + num(c.batch) + ",\"learningRate\":" + num(c.learningRate) + ",\"warmup\":" +
         num(c.warmup) + ",\"weightDecay\":" + num(c.weightDecay) + ",\"clip\":" + num(c.clip) + ",\"seed\":" +
         num(c.seed) + ",\"testExamples\":" + num(c.testExamples) + ",\"base\":" + num(c.base) +
         ",\"t5Buckets\":" + num(c.t5Buckets) + ",\"t5MaxDistance\":" + num(c.t5MaxDistance) + ",\"offset\":" +
         num(c.offset) + ",\"nopeEvery\":" + num(c.nopeEvery) + ",\"randomPositions\":" + num(c.randomPositions) +
         ",\"scalableSoftmax\":" + (c.scalableSoftmax ? "true" : "false") + "}";
}

std::string layoutJson(const Layout& l) {
  std::string out = "[";
  for (size_t i = 0; i < l.tensors.size(); ++i) {
    const TensorInfo& t = l.tensors[i];
    if (i) out += ',';
    out += "{\"name\":" + quoted(t.name) + ",\"rows\":" + std::to_string(t.rows) + ",\"cols\":" +
           std::to_string(t.cols) + ",\"offset\":" + std::to_string(t.offset) + ",\"decay\":" +
           (t.decay ? "true" : "false") + "}";
  }
  return out + "]";
}

// [ARGUMENTS] ----------------------------------------------------------------------------------
std::vector<double> lengths(const std::string& text) {
  std::vector<double> out;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = text.find(',', at);
    const std::string part = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    const size_t dash = part.find('-');
    if (dash == std::string::npos) {
      out.push_back(std::atof(part.c_str()));
    } else {
      const int a = std::atoi(part.substr(0, dash).c_str()), b = std::atoi(part.substr(dash + 1).c_str());
      for (int n = a; n <= b; ++n) out.push_back(n);
    }
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

struct Options {
  TrainConfig config;
  bool parameters = false, dumpStep = false, dumpDouble = false;
  std::vector<std::pair<int, int>> inspect;  // (length, index) pairs
  bool bench = false;
  int dumpBatches = 0;
};

Options parse(int argc, char** argv) {
  Options o;
  TrainConfig& c = o.config;
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw TypeError(key + " needs a value");
      return argv[++i];
    };
    auto number = [&]() { return std::atof(value().c_str()); };
    if (key == "--task") c.task = taskFromName(value());
    else if (key == "--family") c.family = families::familyFromName(value());
    else if (key == "--trainLengths") c.trainLengths = lengths(value());
    else if (key == "--testLengths") c.testLengths = lengths(value());
    else if (key == "--symbols") c.symbols = number();
    else if (key == "--dModel") c.dModel = number();
    else if (key == "--layers") c.layers = number();
    else if (key == "--heads") c.heads = number();
    else if (key == "--mlp") c.mlp = number();
    else if (key == "--steps") c.steps = number();
    else if (key == "--batch") c.batch = number();
    else if (key == "--learningRate") c.learningRate = number();
    else if (key == "--warmup") c.warmup = number();
    else if (key == "--weightDecay") c.weightDecay = number();
    else if (key == "--clip") c.clip = number();
    else if (key == "--seed") c.seed = number();
    else if (key == "--testExamples") c.testExamples = number();
    else if (key == "--base") c.base = number();
    else if (key == "--t5Buckets") c.t5Buckets = number();
    else if (key == "--t5MaxDistance") c.t5MaxDistance = number();
    else if (key == "--offset") c.offset = number();
    else if (key == "--nopeEvery") c.nopeEvery = number();
    else if (key == "--randomPositions") c.randomPositions = number();
    else if (key == "--scalableSoftmax") {
      const std::string v = value();
      if (v != "true" && v != "false") throw TypeError("--scalableSoftmax must be true or false, got " + v);
      c.scalableSoftmax = v == "true";
    }
    else if (key == "--parameters") o.parameters = true;
    else if (key == "--dump-step") o.dumpStep = true;
    else if (key == "--double") o.dumpDouble = true;
    else if (key == "--bench") o.bench = true;
    else if (key == "--dump-batches") o.dumpBatches = int(number());
    else if (key == "--inspect") {
      const std::string v = value();
      const size_t colon = v.find(':');
      // LENGTH may be "max" or "2max": the longest training length, or twice it.
      const std::string length = v.substr(0, colon);
      o.inspect.emplace_back(length == "max" ? -1 : length == "2max" ? -2 : std::atoi(length.c_str()),
                             colon == std::string::npos ? 0 : std::atoi(v.substr(colon + 1).c_str()));
    } else {
      throw TypeError("unknown argument " + key);
    }
  }
  checkTrainConfig(c);
  for (auto& [length, index] : o.inspect) {
    if (length < 0) length *= -maxTrainLength(c);
  }
  return o;
}

// [MODES] --------------------------------------------------------------------------------------
// Training batch `step`, drawn as Trainer::run draws it.
Batch trainingBatch(const TrainConfig& c, int step) { return pack(trainingExamples(c, vocabularyOf(c), step)); }

std::string batchJson(const Batch& b) {
  return "{\"tokens\":" + array(b.tokens) + ",\"positions\":" + array(b.positions) + ",\"starts\":" + array(b.starts) +
         ",\"targetRows\":" + array(b.targetRows) + ",\"targetTokens\":" + array(b.targetTokens) + "}";
}

void dumpBatches(const TrainConfig& c, int count) {
  const Model<float> model(shapeOf(c));
  std::string out = "{\"config\":" + configJson(c) + ",\"vocab\":" + std::to_string(model.shape().vocab) +
                    ",\"maxPositions\":" + std::to_string(model.shape().maxPositions) + ",\"tensors\":" +
                    layoutJson(model.layout()) + ",\"batches\":[";
  for (int s = 0; s < count; ++s) out += (s ? "," : "") + batchJson(trainingBatch(c, s));
  std::puts((out + "]}").c_str());
}

template <class T>
void dumpStep(const TrainConfig& c) {
  const Model<T> model(shapeOf(c));
  const Layout& l = model.layout();
  std::vector<T> params(l.total), grads(l.total);
  initParameters(l, c.seed, params.data());
  const Batch b = trainingBatch(c, 0);
  Activations<T> act;
  const ForwardResult f = model.forward(params.data(), b, act);
  model.backward(params.data(), b, act, grads.data());
  std::vector<T> clipped(grads);
  const double norm = clipGradients(clipped.data(), clipped.size(), c.clip);
  std::vector<T> after(params);
  AdamW<T> opt(l.total);
  const double lr = learningRateAt(c, 0);
  opt.step(l, after.data(), clipped.data(), lr, c.weightDecay);
  const bool full = sizeof(T) == 8;
  std::printf("{\"config\":%s,\"precision\":\"%s\",\"vocab\":%d,\"maxPositions\":%d,\"fireThreshold\":%s,"
              "\"tensors\":%s,\n",
              configJson(c).c_str(), full ? "double" : "float", model.shape().vocab, model.shape().maxPositions,
              num(model.shape().familyShape.fireThreshold, true).c_str(), layoutJson(l).c_str());
  std::printf("\"tokens\":%s,\"positions\":%s,\"starts\":%s,\"targetRows\":%s,\"targetTokens\":%s,\n",
              array(b.tokens).c_str(), array(b.positions).c_str(), array(b.starts).c_str(), array(b.targetRows).c_str(),
              array(b.targetTokens).c_str());
  std::printf("\"loss\":%s,\"gradNorm\":%s,\"learningRate\":%s,\n", num(f.loss, true).c_str(), num(norm, true).c_str(),
              num(lr, true).c_str());
  std::printf("\"parameters\":%s,\n\"logits\":%s,\n\"gradients\":%s,\n\"updated\":%s}\n", array(params, full).c_str(),
              array(act.logits, full).c_str(), array(grads, full).c_str(), array(after, full).c_str());
}

void trainRun(const Options& o) {
  Trainer t(o.config);
  if (o.bench) {
    // Throughput: steps kWarmup.. of the run, each batch's rows counted exactly.
    constexpr int kWarmup = 5;
    t.run(kWarmup);
    const auto timed = std::chrono::steady_clock::now();
    t.run(int(o.config.steps));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - timed).count();
    double tokens = 0;
    for (int s = kWarmup; s < t.stepsDone(); ++s) tokens += trainingBatch(o.config, s).rows();
    std::printf("{\"tokensPerSecond\":%s,\"steps\":%d,\"seconds\":%s}\n", num(tokens / seconds).c_str(),
                t.stepsDone() - kWarmup, num(seconds).c_str());
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  t.run(int(o.config.steps));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string out = "{\"config\":" + configJson(o.config) + ",\"steps\":" + std::to_string(t.stepsDone()) +
                    ",\"seconds\":" + num(seconds) + ",\"status\":" +
                    quoted(t.diverged() ? "diverged" : t.finished() ? "done" : "stopped");
  if (t.diverged()) out += ",\"divergence\":" + quoted(t.divergence());
  std::vector<float> loss, exact, norm, lr;
  for (const StepLog& s : t.log()) {
    loss.push_back(s.loss);
    exact.push_back(s.exact);
    norm.push_back(s.gradNorm);
    lr.push_back(s.learningRate);
  }
  out += ",\"log\":{\"loss\":" + array(loss) + ",\"exact\":" + array(exact) + ",\"gradNorm\":" + array(norm) +
         ",\"learningRate\":" + array(lr) + "}";
  const auto evalStart = std::chrono::steady_clock::now();
  std::string acc = "[";
  for (const LengthScore& s : t.evaluate()) {
    if (acc.size() > 1) acc += ',';
    acc += "{\"length\":" + std::to_string(s.length) + ",\"examples\":" + std::to_string(s.examples) +
           ",\"exact\":" + num(s.exact) + ",\"tokens\":" + num(s.tokens) + ",\"loss\":" + num(s.loss) + "}";
  }
  out += ",\"accuracy\":" + acc + "]";
  out += ",\"evalSeconds\":" + num(std::chrono::duration<double>(std::chrono::steady_clock::now() - evalStart).count());
  if (o.parameters) {
    out += ",\"tensors\":" + layoutJson(t.layout()) + ",\"parameters\":" + array(t.parameters());
  }
  if (!o.inspect.empty()) {
    out += ",\"inspections\":[";
    for (size_t k = 0; k < o.inspect.size(); ++k) {
      const Inspection in = t.inspect(o.inspect[k].first, o.inspect[k].second);
      out += std::string(k ? "," : "") + "{\"length\":" + std::to_string(in.length) + ",\"index\":" +
             std::to_string(o.inspect[k].second) + ",\"tokens\":" + array(in.tokens) + ",\"positions\":" +
             array(in.positions) + ",\"answerStart\":" +
             std::to_string(in.answerStart) + ",\"predicted\":" + array(in.predicted) + ",\"rows\":" +
             std::to_string(in.rows) + ",\"attention\":" + array(in.attention) + "}";
    }
    out += "]";
  }
  std::puts((out + "}").c_str());
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc == 2 && std::string(argv[1]) == "--families") {
      std::puts(families::familiesJson().c_str());
      return 0;
    }
    const Options o = parse(argc, argv);
    if (o.dumpBatches > 0) {
      dumpBatches(o.config, o.dumpBatches);
    } else if (o.dumpStep) {
      if (o.dumpDouble) dumpStep<double>(o.config);
      else dumpStep<float>(o.config);
    } else {
      trainRun(o);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "posenc-train: %s\n", e.what());
    return 2;
  }
  return 0;
}
