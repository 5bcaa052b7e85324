#include "commands/history/history.h"

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <thread>

#include <fmt/format.h>
#include <sqlite3.h>

#include "cli/cli.h"
#include "io/input_file.h"
#include "io/interruption.h"
#include "io/output_file.h"
#include "report/build_info.h"

namespace stk::harness::review {

namespace {

constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS runs(id INTEGER PRIMARY KEY, revision TEXT NOT NULL, date TEXT NOT NULL,"
    " tier TEXT NOT NULL, cpu_model TEXT NOT NULL, cores INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS figures(run_id INTEGER NOT NULL REFERENCES runs(id), key TEXT NOT NULL,"
    " value REAL NOT NULL, PRIMARY KEY(run_id, key));";

// The database's own marks: PRAGMA application_id 'STKH' and user_version 1 (this layout). A file
// without them is taken only when it holds no table, or exactly these two tables with these columns
// (a history written before the marks existed); any other file is refused untouched.
constexpr int kApplicationId = 0x53544B48;  // "STKH"
constexpr int kUserVersion = 1;
const std::map<std::string, std::string> kColumns = {{"runs",
                                                      "id,revision,date,tier,cpu_model,cores"},
                                                     {"figures", "run_id,key,value"}};

// One connection; every failure becomes an InputError naming the database and what SQLite said.
class Db {
 public:
  Db(const std::string& path, bool create) : path_(path) {
    // SQLite would block on a FIFO and write through to a device: only a regular file is opened.
    struct stat st {};
    const bool missing = ::stat(path.c_str(), &st) != 0 && errno == ENOENT;
    if (missing && !create) fail("does not exist");
    if (const std::string why = io::input_file_error(path, std::uint64_t(1) << 40);
        !missing && !why.empty())
      throw InputError(why);
    const int flags = create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK)  // "disk I/O error"
      fail(std::string("cannot be opened: ") + (db_ ? sqlite3_errmsg(db_) : "out of memory"));
    // SQLite creates the file 0644 less the umask (its journals follow the file's mode): made
    // the mode every output has, so a group-writable umask (002) lets the group append too.
    if (missing && ::chmod(path.c_str(), io::plain_file_mode()) != 0)
      fail(std::string("cannot set its mode: ") + std::strerror(errno));
    sqlite3_busy_timeout(db_, 60000);  // concurrent `all` runs wait for each other's transaction
    // A damaged file or one that is not SQLite fails here, before anything is written.
    std::string verdict;
    query("PRAGMA quick_check", [&](sqlite3_stmt* s) {
      verdict += reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
    });
    if (verdict != "ok") fail("integrity check failed: " + verdict);
  }
  ~Db() { sqlite3_close(db_); }
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  void exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string why = err ? err : sqlite3_errmsg(db_);
      sqlite3_free(err);
      fail(why);
    }
  }
  template <class Bind, class Row>
  void query(const std::string& sql, Row row, Bind bind) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
      fail(sqlite3_errmsg(db_));
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> guard(st, sqlite3_finalize);
    bind(st);
    for (int rc; (rc = sqlite3_step(st)) != SQLITE_DONE;) {
      if (rc != SQLITE_ROW) fail(sqlite3_errmsg(db_));
      row(st);
    }
  }
  template <class Row>
  void query(const std::string& sql, Row row) {
    query(sql, row, [](sqlite3_stmt*) {});
  }
  long long last_id() const { return sqlite3_last_insert_rowid(db_); }
  int pragma(const std::string& name) {
    int v = 0;
    query("PRAGMA " + name, [&](sqlite3_stmt* s) { v = sqlite3_column_int(s, 0); });
    return v;
  }
  // Refuses (InputError, nothing written) a database that is not a history of this layout.
  void check_own() {
    const int app = pragma("application_id"), version = pragma("user_version");
    if (app != 0 && app != kApplicationId)
      fail(fmt::format(
          "application_id is {:#x}, not stk's history ({:#x}): another program's database, left untouched",
          unsigned(app), unsigned(kApplicationId)));
    if (version < 0)
      fail(fmt::format("user_version {} was never one of stk's history: left untouched", version));
    if (version > kUserVersion)
      fail(fmt::format("user_version {} is newer than this harness's ({}): left untouched", version,
                       kUserVersion));
    std::map<std::string, std::string> found;
    query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
          [&](sqlite3_stmt* s) {
            found[reinterpret_cast<const char*>(sqlite3_column_text(s, 0))];
          });
    for (auto& [table, cols] : found) {
      if (!kColumns.count(table))
        fail("holds table '" + table + "', not of stk's history: left untouched");
      query("SELECT name FROM pragma_table_info('" + table + "') ORDER BY cid",
            [&, &c = cols](sqlite3_stmt* s) {
              c += (c.empty() ? "" : ",") +
                   std::string(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)));
            });
      if (cols != kColumns.at(table))
        fail("table '" + table + "' has columns (" + cols + "), not stk's (" + kColumns.at(table) +
             "): left untouched");
    }
    if (app == 0 && version == 0 && !found.empty() && found.size() != kColumns.size())
      fail("holds only part of stk's history tables: left untouched");
  }
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError(fmt::format("{}: not a usable history database: {}", path_, why));
  }

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
};

std::string text(sqlite3_stmt* s, int col) {
  const unsigned char* t = sqlite3_column_text(s, col);
  return t ? reinterpret_cast<const char*>(t) : "";
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("model name")) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? line
                                        : line.substr(line.find_first_not_of(' ', colon + 1));
    }
  return "unknown";
}

}  // namespace

RunFacts current_run_facts(const std::string& tier) {
  RunFacts r;
  r.revision = build_info::git_revision();
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  r.date = buf;
  r.tier = tier;
  r.cpu_model = cpu_model();
  r.cores = int(std::thread::hardware_concurrency());
  return r;
}

long long append_history(const std::string& path, const RunFacts& run,
                         const std::vector<Figure>& figures) {
  // An existing file is read (read-only) and checked before anything is written to it.
  io::require_own_regular_target(path);
  if (std::filesystem::exists(path)) {
    Db existing(path, false);
    existing.check_own();
  }
  // The file's creation, SQLite's rollback journal and the commit are one step for a stop signal
  // (io/interruption.h): a stopped run leaves neither a 0-byte database nor a 0-byte journal.
  const io::WriteSection writing;  // declared first: released after the database is closed
  Db db(path, true);
  db.exec("BEGIN IMMEDIATE");  // takes the write lock now: no writer can interleave
  try {
    db.check_own();  // again, under the lock: a file replaced meanwhile is still refused
    db.exec(kSchema);
    db.exec(fmt::format("PRAGMA application_id = {}; PRAGMA user_version = {}", kApplicationId,
                        kUserVersion));
    db.query(
        "INSERT INTO runs(revision, date, tier, cpu_model, cores) VALUES (?, ?, ?, ?, ?)",
        [](sqlite3_stmt*) {},
        [&](sqlite3_stmt* s) {
          sqlite3_bind_text(s, 1, run.revision.c_str(), -1, SQLITE_TRANSIENT);
          sqlite3_bind_text(s, 2, run.date.c_str(), -1, SQLITE_TRANSIENT);
          sqlite3_bind_text(s, 3, run.tier.c_str(), -1, SQLITE_TRANSIENT);
          sqlite3_bind_text(s, 4, run.cpu_model.c_str(), -1, SQLITE_TRANSIENT);
          sqlite3_bind_int(s, 5, run.cores);
        });
    const long long id = db.last_id();
    for (const Figure& f : figures)
      db.query(
          "INSERT OR REPLACE INTO figures(run_id, key, value) VALUES (?, ?, ?)",
          [](sqlite3_stmt*) {},
          [&](sqlite3_stmt* s) {
            sqlite3_bind_int64(s, 1, id);
            sqlite3_bind_text(s, 2, f.key.c_str(), -1, SQLITE_TRANSIENT);
            sqlite3_bind_double(s, 3, f.value);
          });
    db.exec("COMMIT");
    return id;
  } catch (...) {
    try {
      db.exec("ROLLBACK");
    } catch (...) {
    }
    throw;
  }
}

std::vector<HistoryRow> read_history(const std::string& path) {
  Db db(path, false);
  db.check_own();
  std::vector<HistoryRow> rows;
  db.query(
      "SELECT r.id, r.revision, r.date, r.tier, r.cpu_model, r.cores, f.key, f.value FROM runs r"
      " JOIN figures f ON f.run_id = r.id ORDER BY r.id, f.key",
      [&](sqlite3_stmt* s) {
        rows.push_back({sqlite3_column_int64(s, 0),
                        {text(s, 1), text(s, 2), text(s, 3), text(s, 4), sqlite3_column_int(s, 5)},
                        text(s, 6),
                        sqlite3_column_double(s, 7)});
      });
  return rows;
}

std::vector<Series> history_series(const std::vector<HistoryRow>& rows) {
  std::map<std::string, Series> by_key;
  for (const HistoryRow& r : rows) {
    Series& s = by_key[r.key];
    s.key = r.key;
    s.points.push_back({r.run.revision, r.run.date, r.run.tier, r.value});
  }
  std::vector<Series> out;
  for (auto& [k, s] : by_key) out.push_back(std::move(s));
  return out;
}

}  // namespace stk::harness::review
