// Bindings of the trainer module (posenc-train-*.wasm): a training run as a class, and the
// config, examples and table analysis as functions. Like the other bindings, every entry point
// returns a JS RangeError/TypeError object instead of throwing (wasm/bindings/args.hpp);
// wasm/train.js throws it.
#include <emscripten/bind.h>

#include <memory>
#include <string>
#include <vector>

#include "core/families/registry.hpp"
#include "core/train/analysis.hpp"
#include "core/train/config.hpp"
#include "core/train/trainer.hpp"
#include "wasm/bindings/args.hpp"

namespace posenc::js {
namespace {

using train::TrainConfig;

// [CONFIG] -------------------------------------------------------------------------------------
// The config's fields, in the order the API documents them. An unknown key is a TypeError, so a
// typo does not silently train with a default.
const char* const kNumberFields[] = {"symbols", "dModel", "layers", "heads", "mlp", "steps", "batch",
                                     "learningRate", "warmup", "weightDecay", "clip", "seed",
                                     "testExamples", "base", "t5Buckets", "t5MaxDistance", "offset",
                                     "nopeEvery", "randomPositions"};
const char* const kOtherFields[] = {"task", "family", "trainLengths", "testLengths", "scalableSoftmax"};

double* numberField(TrainConfig& c, const std::string& key) {
  if (key == "symbols") return &c.symbols;
  if (key == "dModel") return &c.dModel;
  if (key == "layers") return &c.layers;
  if (key == "heads") return &c.heads;
  if (key == "mlp") return &c.mlp;
  if (key == "steps") return &c.steps;
  if (key == "batch") return &c.batch;
  if (key == "learningRate") return &c.learningRate;
  if (key == "warmup") return &c.warmup;
  if (key == "weightDecay") return &c.weightDecay;
  if (key == "clip") return &c.clip;
  if (key == "seed") return &c.seed;
  if (key == "testExamples") return &c.testExamples;
  if (key == "base") return &c.base;
  if (key == "t5Buckets") return &c.t5Buckets;
  if (key == "t5MaxDistance") return &c.t5MaxDistance;
  if (key == "offset") return &c.offset;
  if (key == "nopeEvery") return &c.nopeEvery;
  if (key == "randomPositions") return &c.randomPositions;
  return nullptr;
}

std::string fieldList() {
  std::string out;
  for (const char* f : kOtherFields) out += std::string(out.empty() ? "" : ", ") + f;
  for (const char* f : kNumberFields) out += std::string(", ") + f;
  return out;
}

std::string taskList() {
  std::string out;
  for (train::Task t : train::kTasks) out += std::string(out.empty() ? "'" : ", '") + train::taskName(t) + "'";
  return out;
}

// The preset's values, then every field the object sets. Checked as a whole at the end.
TrainConfig configFrom(const val& obj) {
  if (obj.isUndefined() || obj.isNull() || obj.typeOf().as<std::string>() != "object" || obj.isArray()) {
    throw TypeError("config must be an object of training fields");
  }
  TrainConfig c;
  const val keys = val::global("Object").call<val>("keys", obj);
  const int count = keys["length"].as<int>();
  for (int i = 0; i < count; ++i) {
    const std::string key = keys[i].as<std::string>();
    const val v = obj[key];
    const std::string name = "config." + key;
    if (v.isUndefined()) continue;
    if (double* field = numberField(c, key)) {
      *field = number(v, name);
    } else if (key == "task") {
      if (!v.isString()) throw TypeError(name + " must be a string (one of " + taskList() + ")");
      c.task = train::taskFromName(v.as<std::string>(), name.c_str());
    } else if (key == "family") {
      if (!v.isString()) throw TypeError(name + " must be a string (one of " + families::familyNames() + ")");
      c.family = families::familyFromName(v.as<std::string>(), name.c_str());
    } else if (key == "scalableSoftmax") {
      if (!v.isTrue() && !v.isFalse()) throw TypeError(name + " must be a boolean");
      c.scalableSoftmax = v.isTrue();
    } else if (key == "trainLengths" || key == "testLengths") {
      std::vector<double> lengths = numbers(v, name, train::kMaxLengthCount);
      (key == "trainLengths" ? c.trainLengths : c.testLengths) = std::move(lengths);
    } else {
      throw TypeError(name + " is not a training field; the fields are " + fieldList());
    }
  }
  train::checkTrainConfig(c);
  return c;
}

val lengthsValue(const std::vector<double>& lengths) {
  val out = val::array();
  for (double n : lengths) out.call<void>("push", val(n));
  return out;
}

// Every field, the test lengths resolved: what a run will use.
val configValue(const TrainConfig& c) {
  val out = val::object();
  out.set("task", val(std::string(train::taskName(c.task))));
  out.set("family", val(families::familyName(c.family)));
  out.set("trainLengths", lengthsValue(c.trainLengths));
  std::vector<double> tests;
  for (int n : train::testLengthsOf(c)) tests.push_back(n);
  out.set("testLengths", lengthsValue(tests));
  for (const char* f : kNumberFields) out.set(f, val(*numberField(const_cast<TrainConfig&>(c), f)));
  out.set("scalableSoftmax", val(c.scalableSoftmax));
  return out;
}

val scoreValue(const train::LengthScore& s) {
  val out = val::object();
  out.set("length", val(s.length));
  out.set("examples", val(s.examples));
  out.set("exact", val(s.exact));
  out.set("tokens", val(s.tokens));
  out.set("loss", val(s.loss));
  return out;
}

val int32Value(const std::vector<int>& v) {
  std::vector<int32_t> copy(v.begin(), v.end());
  return toInt32Array(copy.data(), copy.size());
}

// [RUN] ----------------------------------------------------------------------------------------
class TrainRun {
 public:
  val configure(val config) {
    return guarded([&] {
      run_ = std::make_unique<train::Trainer>(configFrom(config));
      return val::undefined();
    });
  }

  val run(val countArg) {
    return guarded([&] {
      const double count = number(countArg, "count");
      requireInt("count", count, 0, train::kMaxSteps);
      return val(trainer().run(int(count)));
    });
  }

  val status() {
    return guarded([&] {
      const train::Trainer& t = trainer();
      val out = val::object();
      out.set("steps", val(t.stepsDone()));
      out.set("finished", val(t.finished()));
      out.set("diverged", val(t.diverged()));
      out.set("divergence", val(t.divergence()));
      out.set("config", configValue(t.config()));
      out.set("parameterCount", val(double(t.layout().total)));
      out.set("vocab", val(t.shape().vocab));
      out.set("maxPositions", val(t.shape().maxPositions));
      return out;
    });
  }

  // The log from step `from` on (a worker sends only what is new).
  val log(val fromArg) {
    return guarded([&] {
      const train::Trainer& t = trainer();
      const double from = number(fromArg, "from");
      requireInt("from", from, 0, t.stepsDone());
      const size_t n = size_t(t.stepsDone()) - size_t(from);
      std::vector<float> loss(n), exact(n), norm(n), lr(n);
      for (size_t i = 0; i < n; ++i) {
        const train::StepLog& s = t.log()[size_t(from) + i];
        loss[i] = s.loss;
        exact[i] = s.exact;
        norm[i] = s.gradNorm;
        lr[i] = s.learningRate;
      }
      val out = val::object();
      out.set("from", val(from));
      out.set("loss", toFloat32Array(loss.data(), n));
      out.set("exact", toFloat32Array(exact.data(), n));
      out.set("gradNorm", toFloat32Array(norm.data(), n));
      out.set("learningRate", toFloat32Array(lr.data(), n));
      return out;
    });
  }

  // Accuracy at one test length (a count) or at every one (undefined).
  val evaluate(val lengthArg) {
    return guarded([&] {
      const train::Trainer& t = trainer();
      if (lengthArg.isUndefined()) {
        val out = val::array();
        for (const train::LengthScore& s : t.evaluate()) out.call<void>("push", scoreValue(s));
        return out;
      }
      return scoreValue(t.evaluateLength(int(checkedLength(lengthArg))));
    });
  }

  val inspect(val lengthArg, val indexArg) {
    return guarded([&] {
      const train::Trainer& t = trainer();
      const double length = checkedLength(lengthArg);
      const double index = number(indexArg, "index");
      const train::Inspection in = t.inspect(int(length), int(checkedIndex(index)));
      val out = val::object();
      out.set("length", val(in.length));
      out.set("tokens", int32Value(in.tokens));
      out.set("positions", int32Value(in.positions));
      out.set("answerStart", val(in.answerStart));
      out.set("predicted", int32Value(in.predicted));
      out.set("rows", val(in.rows));
      out.set("layers", val(t.shape().layers));
      out.set("heads", val(t.shape().heads));
      out.set("attention", toFloat32Array(in.attention.data(), in.attention.size()));
      return out;
    });
  }

  val parameters() {
    return guarded([&] {
      const train::Trainer& t = trainer();
      val tensors = val::array();
      for (const train::TensorInfo& info : t.layout().tensors) {
        val e = val::object();
        e.set("name", val(info.name));
        e.set("rows", val(info.rows));
        e.set("cols", val(info.cols));
        e.set("offset", val(double(info.offset)));
        e.set("decay", val(info.decay));
        tensors.call<void>("push", e);
      }
      val out = val::object();
      out.set("tensors", tensors);
      out.set("values", toFloat32Array(t.parameters().data(), t.parameters().size()));
      return out;
    });
  }

  val setParameters(val values) {
    return guarded([&] {
      train::Trainer& t = trainer();
      const std::vector<float> v = floats(values, "values", t.parameters().size() + 1);
      t.setParameters(v.data(), v.size());
      return val::undefined();
    });
  }

 private:
  train::Trainer& trainer() {
    if (!run_) throw TypeError("the run has no config: call configure(config) first");
    return *run_;
  }
  double checkedLength(const val& v) {
    const double n = number(v, "length");
    requireInt("length", n, 1, train::kMaxTaskLength);
    return n;
  }
  double checkedIndex(double index) {
    requireInt("index", index, 0, trainer().config().testExamples - 1);
    return index;
  }

  std::unique_ptr<train::Trainer> run_;
};

// [FUNCTIONS] ----------------------------------------------------------------------------------
val trainConfigJs(val config) {
  return guarded([&] { return configValue(configFrom(config)); });
}

val trainPresetJs(val name) {
  return guarded([&] {
    if (!name.isString()) throw TypeError("preset must be a string ('tiny' or 'small')");
    return configValue(train::trainPreset(name.as<std::string>()));
  });
}

// `count` test examples of one length, each { tokens, answerStart, positions } (what evaluate scores).
val trainExamplesJs(val config, val lengthArg, val countArg) {
  return guarded([&] {
    const TrainConfig c = configFrom(config);
    const double length = number(lengthArg, "length");
    requireInt("length", length, 1, train::kMaxTaskLength);
    const double count = number(countArg, "count");
    requireInt("count", count, 1, c.testExamples);
    val out = val::array();
    for (const train::Example& e : train::testExamples(c, int(length), int(count))) {
      val item = val::object();
      item.set("tokens", int32Value(e.tokens));
      item.set("answerStart", val(e.answerStart));
      // Each row's position id: 0, 1, ... or the sequence's drawn ids.
      std::vector<int> positions = e.positions;
      if (positions.empty()) {
        positions.resize(e.tokens.size() - 1);
        for (size_t p = 0; p < positions.size(); ++p) positions[p] = int(p);
      }
      item.set("positions", int32Value(positions));
      out.call<void>("push", item);
    }
    return out;
  });
}

// How the task's token ids are laid out (core/train/tasks.hpp): symbols first, then in
// retrieval the pair tokens and the value tokens, then BOS, SEP, EOS.
val trainVocabularyJs(val config) {
  return guarded([&] {
    const TrainConfig c = configFrom(config);
    const train::Vocabulary v = train::vocabularyOf(c);
    val out = val::object();
    out.set("symbols", val(v.symbols));
    out.set("pairs", val(v.pairs()));
    out.set("values", val(v.values));
    out.set("bos", val(v.bos()));
    out.set("sep", val(v.sep()));
    out.set("eos", val(v.eos()));
    out.set("size", val(v.size()));
    return out;
  });
}

val analyseTableJs(val table, val rowsArg, val colsArg) {
  return guarded([&] {
    const double rows = number(rowsArg, "rows"), cols = number(colsArg, "cols");
    requireInt("rows", rows, 2, 4096);
    requireInt("cols", cols, 2, 1024);
    const std::vector<float> t = floats(table, "table", size_t(rows * cols) + 1);
    requireLength("table", t.size(), size_t(rows * cols));
    const train::TableAnalysis a = train::analyseTable(t.data(), int(rows), int(cols));
    val out = val::object();
    out.set("similarity", toFloat64Array(a.similarity.data(), a.similarity.size()));
    out.set("components", toFloat64Array(a.components.data(), a.components.size()));
    val explained = val::array();
    explained.call<void>("push", val(a.explained[0]));
    explained.call<void>("push", val(a.explained[1]));
    out.set("explained", explained);
    return out;
  });
}

// The registry's family names and the tasks, in order: what the JS API lists.
val trainFamiliesJs() {
  val out = val::array();
  for (int id = 0; id < families::kFamilyCount; ++id) out.call<void>("push", val(families::familyName(id)));
  return out;
}

val trainTasksJs() {
  val out = val::array();
  for (train::Task t : train::kTasks) {
    out.call<void>("push", val(std::string(train::taskName(t))));
  }
  return out;
}

bool simd() {
#ifdef __wasm_simd128__
  return true;
#else
  return false;
#endif
}

}  // namespace
}  // namespace posenc::js

EMSCRIPTEN_BINDINGS(posenc_train) {
  using posenc::js::TrainRun;
  emscripten::class_<TrainRun>("TrainRun")
      .constructor<>()
      .function("configure", &TrainRun::configure)
      .function("run", &TrainRun::run)
      .function("status", &TrainRun::status)
      .function("log", &TrainRun::log)
      .function("evaluate", &TrainRun::evaluate)
      .function("inspect", &TrainRun::inspect)
      .function("parameters", &TrainRun::parameters)
      .function("setParameters", &TrainRun::setParameters);
  emscripten::function("trainConfig", &posenc::js::trainConfigJs);
  emscripten::function("trainPreset", &posenc::js::trainPresetJs);
  emscripten::function("trainExamples", &posenc::js::trainExamplesJs);
  emscripten::function("analyseTable", &posenc::js::analyseTableJs);
  emscripten::function("trainVocabulary", &posenc::js::trainVocabularyJs);
  emscripten::function("trainFamilies", &posenc::js::trainFamiliesJs);
  emscripten::function("trainTasks", &posenc::js::trainTasksJs);
  emscripten::function("simd", &posenc::js::simd);
}
