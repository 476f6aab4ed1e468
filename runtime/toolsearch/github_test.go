package toolsearch

import (
	"compress/gzip"
	"fmt"
	"os"
	"slices"
	"testing"

	"gopkg.in/yaml.v3"
)

// githubDocs reads the tools of the config imported from GitHub's REST
// description (runtime/testdata/github-rest.yaml.gz, 1,223 tools).
func githubDocs(tb testing.TB) []Doc {
	tb.Helper()
	f, err := os.Open("../testdata/github-rest.yaml.gz")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	var cfg struct {
		Tools []struct {
			Name, Title, Description string
			Tags                     []string
			InputSchema              struct {
				Properties map[string]any
			} `yaml:"input_schema"`
		}
	}
	if err := yaml.NewDecoder(zr).Decode(&cfg); err != nil {
		tb.Fatal(err)
	}
	docs := make([]Doc, len(cfg.Tools))
	for i, t := range cfg.Tools {
		docs[i] = Doc{Name: t.Name, Title: t.Title, Description: t.Description, Tags: t.Tags}
		for a := range t.InputSchema.Properties {
			docs[i].Args = append(docs[i].Args, a)
		}
		slices.Sort(docs[i].Args)
	}
	return docs
}

// githubTasks are things a user asks a model to do with GitHub, in their
// words, and the tool that does it.
var githubTasks = []struct{ task, tool string }{
	{"open a new issue in a repository", "issues_create"},
	{"list the issues of a repo", "issues_list_for_repo"},
	{"merge a pull request", "pulls_merge"},
	{"open a pull request from my branch", "pulls_create"},
	{"fork a repository", "repos_create_fork"},
	{"read a file's contents from a repository", "repos_get_content"},
	{"commit a change to a file in a repo", "repos_create_or_update_file_contents"},
	{"search code across GitHub", "search_code"},
	{"find repositories about machine learning", "search_repos"},
	{"who am I logged in as", "users_get_authenticated"},
	{"create a gist", "gists_create"},
	{"list the releases of a repository", "repos_list_releases"},
	{"publish a new release", "repos_create_release"},
	{"list workflow runs of a repository", "actions_list_workflow_runs_for_repo"},
	{"re-run a failed workflow", "actions_re_run_workflow"},
	{"comment on an issue", "issues_create_comment"},
	{"add labels to an issue", "issues_add_labels"},
	{"delete a repository", "repos_delete"},
	{"list the branches of a repo", "repos_list_branches"},
	{"list the commits of a repository", "repos_list_commits"},
	{"star a repository", "activity_star_repo_for_authenticated_user"},
	{"list the members of an organization", "orgs_list_members"},
	{"add a collaborator to a repository", "repos_add_collaborator"},
	{"which files did a pull request change", "pulls_list_files"},
	{"review a pull request", "pulls_create_review"},
	{"create a webhook for a repository", "repos_create_webhook"},
	{"close an issue", "issues_update"},
	{"lock the conversation of an issue", "issues_lock"},
	{"get the latest release", "repos_get_latest_release"},
	{"look up a user by username", "users_get_by_username"},
	{"list the repositories of an organization", "repos_list_for_org"},
	{"compare two commits", "repos_compare_commits"},
	{"list dependabot alerts of a repository", "dependabot_list_alerts_for_repo"},
	{"cancel a workflow run", "actions_cancel_workflow_run"},
	{"create a deployment", "repos_create_deployment"},
	{"list the milestones of a repository", "issues_list_milestones"},
	{"get branch protection settings", "repos_get_branch_protection"},
	{"list my notifications", "activity_list_notifications_for_authenticated_user"},
	{"download a tarball of a repository", "repos_download_tarball_archive"},
	{"assign someone to an issue", "issues_add_assignees"},
	{"request reviewers for a pull request", "pulls_request_reviewers"},
}

// TestGitHubRecall: for the tasks, the right tool is among the first five
// results of 1,223 at least 90% of the time. The ranks are logged (go test
// -v) for the record.
func TestGitHubRecall(t *testing.T) {
	docs := githubDocs(t)
	ix := New(docs)
	found := 0
	for _, tt := range githubTasks {
		hits := ix.Search(tt.task, 50)
		rank := slices.IndexFunc(hits, func(h Hit) bool { return docs[h.Doc].Name == tt.tool }) + 1
		if rank >= 1 && rank <= 5 {
			found++
		}
		var top []string
		for _, h := range hits[:min(3, len(hits))] {
			top = append(top, docs[h.Doc].Name)
		}
		t.Logf("rank %s  %-45q %s  (top: %v)", rankText(rank), tt.task, tt.tool, top)
	}
	recall := float64(found) / float64(len(githubTasks))
	t.Logf("recall@5 = %d/%d = %.2f", found, len(githubTasks), recall)
	if len(githubTasks) < 30 || recall < 0.9 {
		t.Errorf("recall@5 = %.2f over %d tasks, want ≥ 0.9 over ≥ 30", recall, len(githubTasks))
	}
}

func rankText(r int) string {
	if r == 0 {
		return ">50"
	}
	return fmt.Sprint(r)
}
