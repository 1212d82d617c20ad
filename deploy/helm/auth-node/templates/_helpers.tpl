{{/* The chart's name, fullname and labels, as `helm create` lays them out. */}}
{{- define "auth-node.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The release's resource name; at most 54 characters, so "<fullname>-headless" fits in 63. */}}
{{- define "auth-node.fullname" -}}
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

{{- define "auth-node.selectorLabels" -}}
app.kubernetes.io/name: {{ include "auth-node.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "auth-node.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "auth-node.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/component: auth
app.kubernetes.io/part-of: acme
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "auth-node.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (required "image.tag or image.digest must be set" .Values.image.tag | toString) }}
{{- end }}
{{- end }}

{{/*
Refuses what would run but lose or split data: an embedded store with more than one replica,
a shared store without its Secret.
*/}}
{{- define "auth-node.checks" -}}
{{- $kind := .Values.database.kind }}
{{- if not (has $kind (list "sqlite" "postgres")) }}
{{- fail (printf "database.kind must be sqlite or postgres, not %q" $kind) }}
{{- end }}
{{- if eq $kind "sqlite" }}
{{- if or (gt (int .Values.replicaCount) 1) .Values.autoscaling.enabled }}
{{- fail "database.kind sqlite keeps users and login limits in one pod's file: replicaCount must be 1 and autoscaling off (use database.kind postgres for more replicas)" }}
{{- end }}
{{- else }}
{{- if not .Values.database.existingSecret }}
{{- fail "database.kind postgres needs database.existingSecret: the Secret whose database.urlKey holds AUTH_DATABASE_URL" }}
{{- end }}
{{- end }}
{{- if and .Values.autoscaling.enabled (gt (int .Values.autoscaling.minReplicas) (int .Values.autoscaling.maxReplicas)) }}
{{- fail "autoscaling.minReplicas must not be above autoscaling.maxReplicas" }}
{{- end }}
{{- end }}
