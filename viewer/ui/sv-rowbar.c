/* SPDX-License-Identifier: MIT */
/* sv-rowbar.c - see sv-rowbar.h. */
#include "sv-rowbar.h"

#include "sv-doc-ref.h"

struct _SvRowbar {
    GtkWidget parent_instance;
    GtkWidget *entry;
    SvTimeline *tl; /* weak: the window owns both */
    GCancellable *cancel;
    gboolean busy;
    gboolean active; /* a choice of rows is shown */
    char *error;
};

G_DEFINE_FINAL_TYPE(SvRowbar, sv_rowbar, GTK_TYPE_WIDGET)

#define SYNTAX                                                                                           \
    "Choose the rows: ranks 0-63,512-575 · host=nid0012 (* and ? match) · MPI_Wait>30% "               \
    "(share of the window; <, >=, <= too; seconds without %) · message>100 (a count) · sort=MPI_Wait " \
    "(largest first). Enter applies to the current time window, Escape shows every timeline."

typedef struct apply_job {
    SvDocRef *doc;
    char *expr;
    double t0, t1;
} apply_job;

static void apply_job_free(gpointer p)
{
    apply_job *j = p;
    sv_doc_ref_release(j->doc);
    g_free(j->expr);
    g_free(j);
}

static void apply_thread(GTask *task, gpointer src, gpointer data, GCancellable *c)
{
    apply_job *j = data;
    char err[256] = "";
    sv_rowsel *s = sv_rowsel_apply(j->doc, j->expr, j->t0, j->t1, err, sizeof err);
    if (s)
        g_task_return_pointer(task, s, (GDestroyNotify)sv_rowsel_free);
    else
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", err);
}

static void set_error(SvRowbar *self, const char *msg)
{
    g_free(self->error);
    self->error = msg ? g_strdup(msg) : NULL;
    if (msg) {
        gtk_widget_add_css_class(self->entry, "error");
        gtk_widget_set_tooltip_text(self->entry, msg);
    } else {
        gtk_widget_remove_css_class(self->entry, "error");
        gtk_widget_set_tooltip_text(self->entry, SYNTAX);
    }
}

static void show_active(SvRowbar *self, gboolean active)
{
    gtk_entry_set_icon_from_icon_name(GTK_ENTRY(self->entry), GTK_ENTRY_ICON_SECONDARY,
                                      active ? "edit-clear-symbolic" : NULL);
    gtk_entry_set_icon_tooltip_text(GTK_ENTRY(self->entry), GTK_ENTRY_ICON_SECONDARY,
                                    active ? "Show every timeline (Escape)" : NULL);
    self->active = active;
}

static void apply_done(GObject *src, GAsyncResult *res, gpointer user)
{
    SvRowbar *self = user;
    GError *error = NULL;
    sv_rowsel *s = g_task_propagate_pointer(G_TASK(res), &error);
    gboolean current = g_task_get_cancellable(G_TASK(res)) == self->cancel;
    if (current) self->busy = FALSE;
    if (current && s && self->tl) {
        set_error(self, NULL);
        show_active(self, TRUE);
        sv_timeline_set_rowsel(self->tl, s);
    } else {
        sv_rowsel_free(s);
        if (current && error) set_error(self, error->message);
    }
    g_clear_error(&error);
    g_object_unref(self);
}

void sv_rowbar_clear(SvRowbar *self)
{
    if (self->cancel) g_cancellable_cancel(self->cancel);
    g_clear_object(&self->cancel);
    self->busy = FALSE;
    gtk_editable_set_text(GTK_EDITABLE(self->entry), "");
    set_error(self, NULL);
    show_active(self, FALSE);
    if (self->tl && sv_timeline_get_rowsel(self->tl)) sv_timeline_set_rowsel(self->tl, NULL);
}

gboolean sv_rowbar_apply(SvRowbar *self, const char *expr)
{
    SvDocRef *doc = self->tl ? sv_timeline_get_doc(self->tl) : NULL;
    if (!doc) return FALSE;
    if (g_strcmp0(gtk_editable_get_text(GTK_EDITABLE(self->entry)), expr) != 0)
        gtk_editable_set_text(GTK_EDITABLE(self->entry), expr);
    const char *p = expr;
    while (g_ascii_isspace(*p)) p++;
    if (!*p) {
        sv_rowbar_clear(self);
        return TRUE;
    }
    char err[256] = "";
    if (sv_rowsel_check(doc, expr, err, sizeof err)) {
        set_error(self, err);
        return FALSE;
    }
    set_error(self, NULL);
    if (self->cancel) g_cancellable_cancel(self->cancel);
    g_clear_object(&self->cancel);
    self->cancel = g_cancellable_new();
    self->busy = TRUE;
    const sv_viewport *vp = sv_timeline_get_viewport(self->tl);
    apply_job *j = g_new0(apply_job, 1);
    j->doc = sv_doc_ref_acquire(doc);
    j->expr = g_strdup(expr);
    j->t0 = vp->t0;
    j->t1 = vp->t1;
    GTask *task = g_task_new(NULL, self->cancel, apply_done, g_object_ref(self));
    g_task_set_task_data(task, j, apply_job_free);
    g_task_run_in_thread(task, apply_thread);
    g_object_unref(task);
    return TRUE;
}

gboolean sv_rowbar_is_busy(SvRowbar *self)
{
    return self->busy;
}

const char *sv_rowbar_get_error(SvRowbar *self)
{
    return self->error;
}

static void activate_cb(GtkEntry *e, SvRowbar *self)
{
    sv_rowbar_apply(self, gtk_editable_get_text(GTK_EDITABLE(e)));
    if (self->tl && !self->error) gtk_widget_grab_focus(GTK_WIDGET(self->tl)); /* the bare keys again */
}

static void icon_press_cb(GtkEntry *e, GtkEntryIconPosition pos, SvRowbar *self)
{
    sv_rowbar_clear(self);
}

static gboolean key_cb(GtkEventControllerKey *c, guint keyval, guint code, GdkModifierType st, SvRowbar *self)
{
    if (keyval != GDK_KEY_Escape) return FALSE;
    sv_rowbar_clear(self);
    if (self->tl) gtk_widget_grab_focus(GTK_WIDGET(self->tl));
    return TRUE;
}

/* Another file: its rows are all shown, the entry starts empty. */
static void doc_changed(SvTimeline *tl, SvRowbar *self)
{
    if (!sv_timeline_get_rowsel(tl) && !self->busy && self->active) {
        gtk_editable_set_text(GTK_EDITABLE(self->entry), "");
        set_error(self, NULL);
        show_active(self, FALSE);
    }
}

void sv_rowbar_set_timeline(SvRowbar *self, SvTimeline *tl)
{
    self->tl = tl;
    g_signal_connect_object(tl, "view-changed", G_CALLBACK(doc_changed), self, 0);
}

static void sv_rowbar_dispose(GObject *o)
{
    SvRowbar *self = SV_ROWBAR(o);
    if (self->cancel) g_cancellable_cancel(self->cancel);
    g_clear_object(&self->cancel);
    g_clear_pointer(&self->entry, gtk_widget_unparent);
    g_clear_pointer(&self->error, g_free);
    G_OBJECT_CLASS(sv_rowbar_parent_class)->dispose(o);
}

static void sv_rowbar_class_init(SvRowbarClass *klass)
{
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->dispose = sv_rowbar_dispose;
    gtk_widget_class_set_layout_manager_type(wc, GTK_TYPE_BIN_LAYOUT);
    gtk_widget_class_set_css_name(wc, "rowbar");
}

static void sv_rowbar_init(SvRowbar *self)
{
    self->entry = gtk_entry_new();
    gtk_entry_set_placeholder_text(GTK_ENTRY(self->entry), "Rows: ranks 0-63, MPI_Wait>30%…");
    gtk_widget_set_tooltip_text(self->entry, SYNTAX);
    gtk_widget_set_valign(self->entry, GTK_ALIGN_CENTER);
    gtk_widget_set_margin_start(self->entry, 4);
    gtk_widget_set_margin_end(self->entry, 4);
    gtk_widget_set_parent(self->entry, GTK_WIDGET(self));
    g_signal_connect(self->entry, "activate", G_CALLBACK(activate_cb), self);
    g_signal_connect(self->entry, "icon-press", G_CALLBACK(icon_press_cb), self);
    GtkEventController *keys = gtk_event_controller_key_new();
    g_signal_connect(keys, "key-pressed", G_CALLBACK(key_cb), self);
    gtk_widget_add_controller(self->entry, keys);
    gtk_widget_set_size_request(GTK_WIDGET(self), -1, 44);
}
