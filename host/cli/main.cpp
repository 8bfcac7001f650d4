// The `tband` command: decode traces, convert them to Perfetto and JSON,
// dump, serve, print shell completions.
namespace tband::cli {
int run(int argc, char** argv);
}

int main(int argc, char** argv) { return tband::cli::run(argc, argv); }
