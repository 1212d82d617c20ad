{{/* The chart's name, fullname and labels, as `helm create` lays them out. */}}
{{- define "person-spring.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The release's resource name; at most 54 characters, so "<fullname>-headless" fits in 63. */}}
{{- define "person-spring.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 54 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 54 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 54 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "person-spring.selectorLabels" -}}
app.kubernetes.io/name: {{ include "person-spring.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "person-spring.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "person-spring.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/component: person
app.kubernetes.io/part-of: acme
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "person-spring.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (required "image.tag or image.digest must be set" .Values.image.tag | toString) }}
{{- end }}
{{- end }}

{{/*
Refuses what would run but lose or split data: an embedded database with more than one
replica, a shared one without its URL or Secret.
*/}}
{{- define "person-spring.checks" -}}
{{- $kind := .Values.database.kind }}
{{- if not (has $kind (list "h2" "postgres")) }}
{{- fail (printf "database.kind must be h2 or postgres, not %q" $kind) }}
{{- end }}
{{- if eq $kind "h2" }}
{{- if or (gt (int .Values.replicaCount) 1) .Values.autoscaling.enabled }}
{{- fail "database.kind h2 keeps people in one pod's file: replicaCount must be 1 and autoscaling off (use database.kind postgres for more replicas)" }}
{{- end }}
{{- else }}
{{- if not .Values.database.url }}
{{- fail "database.kind postgres needs database.url, the JDBC URL (jdbc:postgresql://host:5432/db)" }}
{{- end }}
{{- if not .Values.database.existingSecret }}
{{- fail "database.kind postgres needs database.existingSecret: the Secret whose database.passwordKey holds DB_PASSWORD" }}
{{- end }}
{{- end }}
{{- if and .Values.autoscaling.enabled (gt (int .Values.autoscaling.minReplicas) (int .Values.autoscaling.maxReplicas)) }}
{{- fail "autoscaling.minReplicas must not be above autoscaling.maxReplicas" }}
{{- end }}
{{- end }}
